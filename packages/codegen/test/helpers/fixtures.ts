import { specWithSchemas } from './generated.js';

// The DateTime type of the service specification (section 2.4), exactly as written there.
const DATE_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|\\+\\d{2}:\\d{2}|-(?:0[1-9]|1[0-2]):\\d{2})$';

export const SCHEMAS = {
  DateTime: { type: 'string', format: 'date-time', pattern: DATE_TIME_PATTERN },
  Closed: {
    type: 'object',
    required: ['Id'],
    additionalProperties: false,
    properties: { Id: { type: 'string', minLength: 1, maxLength: 4 }, Note: { type: 'string' } },
  },
  Open: { type: 'object', properties: { Id: { type: 'string' } } },
  Count: { type: 'integer', format: 'int32', minimum: 0 },
  Ratio: { type: 'number', exclusiveMinimum: true, minimum: 0, maximum: 1 },
  Nullable: { type: 'string', nullable: true },
  Colour: { type: 'string', enum: ['Red', 'Green'] },
  /** null passes only when the enum lists it, whatever `nullable` says. */
  NullableColour: { type: 'string', nullable: true, enum: ['Red', 'Green'] },
  NullableColourWithNull: { type: 'string', nullable: true, enum: ['Red', 'Green', null] },
  /** The 3.0 nullable idiom (no `type` beside it): null is also accepted (`--nullable literal`: it is not). */
  NullableNoType: { allOf: [{ type: 'string' }], nullable: true },
  Big: { type: 'integer', format: 'int64' },
  Tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 2, uniqueItems: true },
  Day: { type: 'string', format: 'date' },
  Link: { type: 'string', format: 'uri' },
  Cat: { type: 'object', required: ['kind', 'meows'], properties: { kind: { type: 'string' }, meows: { type: 'boolean' } } },
  Dog: { type: 'object', required: ['kind', 'barks'], properties: { kind: { type: 'string' }, barks: { type: 'boolean' } } },
  /** Both variants accept `{kind, meows, barks}`: oneOf must reject it (exactly one). */
  Pet: { oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }] },
  AnyPet: { anyOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }] },
  /** The tag is not pinned (`kind: string`): the discriminator is a hint, the answer is oneOf's. */
  TaggedPet: {
    oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
    discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat', dog: '#/components/schemas/Dog' } },
  },
  PinnedCat: { type: 'object', required: ['kind', 'meows'], properties: { kind: { type: 'string', enum: ['cat'] }, meows: { type: 'boolean' } } },
  PinnedDog: { type: 'object', required: ['kind', 'barks'], properties: { kind: { type: 'string', enum: ['dog', 'puppy'] }, barks: { type: 'boolean' } } },
  /** Every variant requires and pins the tag to its own values: the tag selects (a switch). */
  PinnedPet: {
    oneOf: [{ $ref: '#/components/schemas/PinnedCat' }, { $ref: '#/components/schemas/PinnedDog' }],
    discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/PinnedCat', dog: '#/components/schemas/PinnedDog' } },
  },
  Claims: {
    type: 'object',
    required: ['iss', 'exp'],
    properties: { iss: { type: 'string' }, exp: { type: 'number' } },
  },
  /** The shape of the official signed bodies: read literally it would reject every real token. */
  Signed: {
    allOf: [
      { $ref: '#/components/schemas/Claims' },
      { type: 'object', required: ['message'], additionalProperties: false, properties: { message: { $ref: '#/components/schemas/Closed' } } },
    ],
  },
  Node: {
    type: 'object',
    required: ['name'],
    properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } },
  },
  WithDefault: { type: 'object', properties: { size: { type: 'integer', default: 100 } } },
  /** Members of one schema only: a record. */
  Counters: { type: 'object', additionalProperties: { type: 'integer', format: 'int32' } },
  /** Declared members and others of one schema: a catch-all object. */
  Labelled: { type: 'object', required: ['Id'], properties: { Id: { type: 'string' } }, additionalProperties: { $ref: '#/components/schemas/Colour' } },
  Constant: { type: 'string', enum: ['Only'] },
};

/** The schemas above as one OpenAPI document. */
export const SEMANTICS_FIXTURE = specWithSchemas(SCHEMAS);
