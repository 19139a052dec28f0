/**
 * How each parameter travels, as plain data in the generated operation (the descriptions of
 * ir/parameter-wire.ts): the client's serializer and the server's parser read it, so the
 * generated code holds no serialization logic of its own.
 */
import type { ParameterIR, SchemaNode } from '../../ir/types.js';
import { parameterWire, type ParameterShape } from '../../ir/parameter-wire.js';

const DEFAULT_STYLE: Record<ParameterIR['in'], string> = { path: 'simple', query: 'form', querystring: 'content', header: 'simple', cookie: 'form' };

/**
 * True when the value travels as one plain text (or, in the query, as a repeated name): the
 * runtimes' ordinary handling is exact, so the parameter needs no entry. This keeps the
 * common case (and every file without styles) free of any parsing beyond today's.
 */
function isPlain(p: ParameterIR, shape: ParameterShape): boolean {
  if (p.contentType !== undefined || p.allowReserved === true || p.style !== DEFAULT_STYLE[p.in]) return false;
  return shape === 'primitive' || (shape === 'array' && p.in === 'query' && p.explode);
}

/**
 * The `parameters` entry of an operation's request: one object per parameter that is not
 * plain, or undefined when every parameter is.
 */
export function wireDescriptors(parameters: readonly ParameterIR[], components: Map<string, SchemaNode>): string | undefined {
  const entries: string[] = [];
  for (const p of parameters) {
    const wire = parameterWire(p, components);
    if (isPlain(p, wire.shape)) continue;
    const fields = Object.entries(wire).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
    entries.push(`  { ${fields.join(', ')} },`);
  }
  return entries.length > 0 ? `[\n${entries.join('\n')}\n]` : undefined;
}
