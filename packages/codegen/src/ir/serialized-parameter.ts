/**
 * Reading an OpenAPI 3.2 example's `serializedValue` of a parameter: the text as it travels in
 * the parameter's place and style (`color=blue&color=black` in a query, `.blue.black` in a label
 * path), read back by the wire model the router reads requests with, then given the types its
 * schema describes (numbers and booleans arrive as text), so that it is checked like `value`.
 */
import { applyParameterStyles, ParameterStyleError } from '@bank-data-sharing/wire';
import { derefKind, type ComponentLookup } from './deref-kind.js';
import { parameterWire } from './parameter-wire.js';
import type { ParameterIR, SchemaNode } from './types.js';

export type SerializedReader = (text: string) => { value: unknown } | { problem: string };

/** Text decoded into what the schema describes: numbers and booleans from their text, members and items by theirs. */
function typed(value: unknown, node: SchemaNode | undefined, components: ComponentLookup, depth = 0): unknown {
  if (!node || depth >= 16) return value;
  const target = derefKind(node, components);
  if (typeof value === 'string') {
    if (target.kind === 'number' && /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(value)) return Number(value);
    if (target.kind === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
    return value;
  }
  if (Array.isArray(value) && target.kind === 'array') return value.map((item) => typed(item, target.items, components, depth + 1));
  if (value !== null && typeof value === 'object' && target.kind === 'object') {
    const members = new Map(target.properties.map((p) => [p.name, p.schema]));
    return Object.fromEntries(Object.entries(value).map(([name, member]) => [name, typed(member, members.get(name), components, depth + 1)]));
  }
  return value;
}

/** The reader of a parameter's `serializedValue` in its place and style. */
export function serializedParameterReader(parameter: Pick<ParameterIR, 'name' | 'in' | 'style' | 'explode' | 'allowReserved' | 'contentType' | 'schema'>, components: ComponentLookup): SerializedReader {
  const wire = parameterWire(parameter, components);
  return (text) => {
    const raw = {
      path: parameter.in === 'path' ? { [parameter.name]: text } : {},
      query: parameter.in === 'query' ? text : '',
      headers: parameter.in === 'header' ? { [parameter.name.toLowerCase()]: text } : {},
      cookie: parameter.in === 'cookie' ? text : undefined,
    };
    const maps = { path: {}, query: {}, headers: {}, cookies: {} } as Record<'path' | 'query' | 'headers' | 'cookies', Record<string, unknown>>;
    try {
      applyParameterStyles([wire], raw, maps, { query: new Set([parameter.name]), cookie: new Set([parameter.name]) });
    } catch (error) {
      if (error instanceof ParameterStyleError) return { problem: error.message };
      throw error;
    }
    const place = parameter.in === 'header' ? 'headers' : parameter.in === 'cookie' ? 'cookies' : (parameter.in as 'path' | 'query');
    const read = maps[place][parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name];
    if (read === undefined) return { problem: `it does not hold ${parameter.in} parameter "${parameter.name}" in style ${parameter.style}${parameter.explode ? ', exploded' : ''}` };
    return { value: typed(read, parameter.schema, components) };
  };
}
