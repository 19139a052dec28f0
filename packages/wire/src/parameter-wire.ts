/**
 * How parameters that are more than one plain text travel (OpenAPI `style`/`explode` of
 * arrays and objects, `matrix`/`label` paths, `content`-encoded values): the generated
 * operation lists them as data (`request.parameters`), parameter-serialize.ts writes them
 * (the client) and parameter-parse.ts reads them back (the server, mock handlers).
 *
 * The forms are RFC 6570's, as OpenAPI's style tables give them (value `blue`, list
 * `blue,black`, object `{R: 100, G: 200}`):
 *
 * | style          | explode | primitive    | array                     | object                 |
 * |----------------|---------|--------------|---------------------------|------------------------|
 * | simple         | false   | `blue`       | `blue,black`              | `R,100,G,200`          |
 * | simple         | true    | `blue`       | `blue,black`              | `R=100,G=200`          |
 * | label          | false   | `.blue`      | `.blue,black`             | `.R,100,G,200`         |
 * | label          | true    | `.blue`      | `.blue.black`             | `.R=100.G=200`         |
 * | matrix         | false   | `;c=blue`    | `;c=blue,black`           | `;c=R,100,G,200`       |
 * | matrix         | true    | `;c=blue`    | `;c=blue;c=black`         | `;R=100;G=200`         |
 * | form           | false   | `c=blue`     | `c=blue,black`            | `c=R,100,G,200`        |
 * | form           | true    | `c=blue`     | `c=blue&c=black`          | `R=100&G=200`          |
 * | spaceDelimited | false   |              | `c=blue%20black`          | `c=R%20100%20G%20200`  |
 * | pipeDelimited  | false   |              | `c=blue|black`            | `c=R|100|G|200`        |
 * | deepObject     | true    |              |                           | `c[R]=100&c[G]=200`    |
 *
 * Cookies (`form`) separate exploded pairs by `; ` as the Cookie header does: `c=blue; c=black`.
 * The reader matches delimiters before percent-decoding, so an encoded delimiter (`%2C`) is
 * data; the writer percent-encodes the delimiters inside values for that reason.
 */

/** One entry of a generated operation's `request.parameters`. */
export interface ParameterWire {
  readonly name: string;
  readonly in: string;
  readonly style: string;
  readonly explode: boolean;
  readonly shape: string;
  readonly allowReserved?: boolean;
  readonly contentType?: string;
}

const LABEL: Record<string, string> = { path: 'path parameter', query: 'query parameter', querystring: 'query string', header: 'header', cookie: 'cookie' };

/**
 * A value that cannot be read (server: answered 400) or written (client: refused before
 * sending) in its parameter's style, naming both: `path parameter "id": style label starts with "."`.
 */
export class ParameterStyleError extends Error {
  constructor(
    readonly parameter: ParameterWire,
    rule: string,
  ) {
    super(`${LABEL[parameter.in] ?? parameter.in} "${parameter.name}": ${rule}`);
    this.name = 'ParameterStyleError';
  }
}

const byLocation = new WeakMap<readonly ParameterWire[], Map<string, Map<string, ParameterWire>>>();

/**
 * The listed parameters of one location, by name (header names lower-case); built once per
 * operation. Undefined when the operation lists none (or none there).
 *
 * @example
 * listedIn(operations.GetThings.request.parameters, 'query')?.get('color') // → { name: 'color', in: 'query', style: 'form', ... }
 */
export function listedIn(wire: readonly ParameterWire[] | undefined, location: string): Map<string, ParameterWire> | undefined {
  if (wire === undefined) return undefined;
  let locations = byLocation.get(wire);
  if (!locations) {
    locations = new Map();
    for (const parameter of wire) {
      let named = locations.get(parameter.in);
      if (!named) locations.set(parameter.in, (named = new Map()));
      named.set(parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name, parameter);
    }
    byLocation.set(wire, locations);
  }
  return locations.get(location);
}
