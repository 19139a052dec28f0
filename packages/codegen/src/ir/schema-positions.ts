/**
 * Every place of an OpenAPI document where a Schema Object starts: the component schemas,
 * and each `schema` (and OpenAPI 3.2's `itemSchema`) of a parameter, header or media type,
 * wherever in paths, webhooks and components it is written. Examples and extensions are not
 * entered: a value there is data, not a schema, even when it looks like one.
 */
import type { JsonPointer } from './types.js';
import { escapePointerToken, isRecord } from './json-pointer.js';

const SCHEMA_KEYS = new Set(['schema', 'itemSchema']);
const DATA_KEYS = new Set(['example', 'examples']);

export function forEachSchemaPosition(document: Record<string, unknown>, visit: (schema: unknown, pointer: JsonPointer) => void): void {
  const components = isRecord(document['components']) ? document['components'] : {};
  const schemas = isRecord(components['schemas']) ? components['schemas'] : {};
  for (const [name, raw] of Object.entries(schemas)) visit(raw, `#/components/schemas/${escapePointerToken(name)}`);

  const walk = (node: unknown, pointer: JsonPointer): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, `${pointer}/${i}`));
      return;
    }
    if (!isRecord(node)) return;
    for (const [key, child] of Object.entries(node)) {
      if (DATA_KEYS.has(key) || key.startsWith('x-')) continue;
      const at = `${pointer}/${escapePointerToken(key)}`;
      if (SCHEMA_KEYS.has(key) && (isRecord(child) || typeof child === 'boolean')) visit(child, at);
      else walk(child, at);
    }
  };
  for (const key of ['paths', 'webhooks']) walk(document[key], `#/${key}`);
  for (const [key, child] of Object.entries(components)) {
    if (key !== 'schemas' && key !== 'examples') walk(child, `#/components/${escapePointerToken(key)}`);
  }
}
