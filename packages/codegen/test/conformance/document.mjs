// Turns the suite's groups into an OpenAPI document the generator reads.

/** The component name of group `index`. */
export function schemaName(index) {
  return `S${index}`;
}

/**
 * The schema as it reads under `#/components/schemas/<name>`: the suite's fragment-only
 * references are relative to the schema's own root, the document's are relative to the
 * OpenAPI document. References with a URI part are left as written.
 */
export function rebaseRefs(schema, name, openapi = '3.1.0') {
  if (Array.isArray(schema)) return schema.map((item) => rebaseRefs(item, name, openapi));
  if (schema === null || typeof schema !== 'object') return schema;
  // Below an `$id` (draft 4: `id`, ignored beside `$ref`) fragments are relative to that
  // resource, wherever it sits: nothing there moves.
  const id = openapi.startsWith('3.1') ? schema.$id : '$ref' in schema ? undefined : schema.id;
  if (typeof id === 'string' && !id.startsWith('#')) return schema;
  const copy = {};
  for (const [key, value] of Object.entries(schema)) {
    // `enum` and `const` hold data: a `$ref` member there is no reference.
    const data = key === 'enum' || key === 'const';
    const rebased = data ? value : key === '$ref' && typeof value === 'string' && value.startsWith('#') ? rebaseRef(value, name) : rebaseRefs(value, name, openapi);
    // `__proto__` as an own key must stay data, not change the copy's prototype.
    Object.defineProperty(copy, key, { value: rebased, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

function rebaseRef(ref, name) {
  const root = `#/components/schemas/${name}`;
  if (ref === '#') return root;
  // Only JSON-pointer fragments move; a plain-name fragment (`#foo`) names an anchor.
  return ref.startsWith('#/') ? `${root}${ref.slice(1)}` : ref;
}

/** A minimal document holding `groups` (`[{ index, schema }]`) as component schemas. */
export function documentFor({ openapi, groups }) {
  const schemas = {};
  for (const { index, schema } of groups) schemas[schemaName(index)] = rebaseRefs(schema, schemaName(index), openapi);
  return { openapi, info: { title: 'Conformance', version: '1' }, paths: {}, components: { schemas } };
}
