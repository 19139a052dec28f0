/**
 * Finds, in an OpenAPI 3.0.x or 3.1.x document, the fields only OpenAPI 3.2 defines.
 *
 * Such a field is not part of the version the file declares, so tools reading it as 3.0/3.1
 * ignore it or reject it; the user has to bump `openapi` to 3.2.0 or remove the field.
 *
 * The walk follows the OpenAPI object model rather than searching every member by name:
 * schemas, example values and user-chosen map keys can legitimately carry these names as data.
 * A 3.2 field is reported once and not walked into: whatever it holds goes with it, whichever fix is chosen.
 */
import { escapePointerToken, isRecord } from './json-pointer.js';
import type { Diagnostic } from './types.js';

const CODE = 'openapi-3.2-field';

const OPERATION_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Schema keywords whose value is one subschema. */
const SUBSCHEMA_KEYWORDS = new Set([
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contentSchema',
  'additionalItems',
]);
/** Schema keywords whose value is an array of subschemas. */
const SUBSCHEMA_LIST_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Schema keywords whose value maps user-chosen names to subschemas. */
const SUBSCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions']);

function isExtension(key: string): boolean {
  return key.startsWith('x-');
}

function isReference(value: Record<string, unknown>): boolean {
  return typeof value['$ref'] === 'string';
}

function child(pointer: string, token: string | number): string {
  return `${pointer}/${escapePointerToken(String(token))}`;
}

export function fieldsOfLaterVersion(document: Record<string, unknown>): Diagnostic[] {
  if (!isRecord(document)) return [];
  const version = document['openapi'];
  if (typeof version !== 'string') return [];
  const is30 = version.startsWith('3.0.');
  if (!is30 && !version.startsWith('3.1.')) return [];

  const found: Diagnostic[] = [];
  // Ancestors of the node being walked: guards against cyclic in-memory documents.
  const inProgress = new Set<object>();

  function report(pointer: string, subject: string): void {
    found.push({
      severity: 'error',
      code: CODE,
      pointer,
      message: `${subject}, but this file says openapi ${version}: set openapi: 3.2.0 to use it, or remove it`,
    });
  }

  function field(pointer: string, name: string): void {
    report(pointer, `"${name}" is an OpenAPI 3.2 field`);
  }

  /** Calls `visit` on each own member of `value` except extensions, in document order. */
  function members(value: unknown, visit: (key: string, member: unknown, pointer: string) => void, pointer: string): void {
    if (!isRecord(value) || inProgress.has(value)) return;
    inProgress.add(value);
    try {
      for (const key of Object.keys(value)) {
        if (!isExtension(key)) visit(key, value[key], child(pointer, key));
      }
    } finally {
      inProgress.delete(value);
    }
  }

  function eachOf(value: unknown, visit: (item: unknown, pointer: string) => void, pointer: string): void {
    if (!Array.isArray(value) || inProgress.has(value)) return;
    inProgress.add(value);
    try {
      value.forEach((item, index) => visit(item, child(pointer, index)));
    } finally {
      inProgress.delete(value);
    }
  }

  /** A map of user-chosen names (or status codes, expressions) to objects of one kind. */
  function mapOf(value: unknown, visit: (item: unknown, pointer: string) => void, pointer: string): void {
    members(value, (_key, item, at) => visit(item, at), pointer);
  }

  /** Reference Objects are skipped: their target is walked where it is defined. */
  function unlessReference(visit: (value: Record<string, unknown>, pointer: string) => void) {
    return (value: unknown, pointer: string): void => {
      if (isRecord(value) && !isReference(value)) visit(value, pointer);
    };
  }

  function servers(value: unknown, pointer: string): void {
    eachOf(
      value,
      (server, at) =>
        members(
          server,
          (key, _member, p) => {
            if (key === 'name') field(p, key);
          },
          at,
        ),
      pointer,
    );
  }

  function schema(value: unknown, pointer: string): void {
    if (!isRecord(value)) return;
    // A 3.0 `$ref` replaces its siblings; in 3.1 (JSON Schema 2020-12) siblings still apply.
    if (is30 && isReference(value)) return;
    members(
      value,
      (key, member, at) => {
        if (key === 'discriminator') {
          members(
            member,
            (k, _m, p) => {
              if (k === 'defaultMapping') field(p, k);
            },
            at,
          );
        } else if (key === 'xml') {
          members(
            member,
            (k, _m, p) => {
              if (k === 'nodeType') field(p, k);
            },
            at,
          );
        } else if (key === 'items') {
          // Older drafts allow a tuple array here; accept both shapes.
          if (Array.isArray(member)) eachOf(member, schema, at);
          else schema(member, at);
        } else if (SUBSCHEMA_KEYWORDS.has(key)) {
          schema(member, at);
        } else if (SUBSCHEMA_LIST_KEYWORDS.has(key)) {
          eachOf(member, schema, at);
        } else if (SUBSCHEMA_MAP_KEYWORDS.has(key)) {
          mapOf(member, schema, at);
        }
      },
      pointer,
    );
  }

  const example = unlessReference((value, pointer) =>
    members(
      value,
      (key, _member, at) => {
        // `value` is user data and never walked.
        if (key === 'dataValue' || key === 'serializedValue') field(at, key);
      },
      pointer,
    ),
  );

  const header = unlessReference((value, pointer) =>
    members(
      value,
      (key, member, at) => {
        if (key === 'schema') schema(member, at);
        else if (key === 'content') content(member, at);
        else if (key === 'examples') mapOf(member, example, at);
      },
      pointer,
    ),
  );

  const encoding = unlessReference((value, pointer) =>
    members(
      value,
      (key, member, at) => {
        if (key === 'encoding' || key === 'itemEncoding' || key === 'prefixEncoding') field(at, key);
        else if (key === 'headers') mapOf(member, header, at);
      },
      pointer,
    ),
  );

  const mediaType = unlessReference((value, pointer) =>
    members(
      value,
      (key, member, at) => {
        if (key === 'itemSchema' || key === 'itemEncoding' || key === 'prefixEncoding') field(at, key);
        else if (key === 'schema') schema(member, at);
        else if (key === 'examples') mapOf(member, example, at);
        else if (key === 'encoding') mapOf(member, encoding, at);
      },
      pointer,
    ),
  );

  function content(value: unknown, pointer: string): void {
    mapOf(value, mediaType, pointer);
  }

  const parameter = unlessReference((value, pointer) =>
    members(
      value,
      (key, member, at) => {
        if (key === 'in' && member === 'querystring') report(at, '"in: querystring" is OpenAPI 3.2 only');
        else if (key === 'style' && member === 'cookie') report(at, '"style: cookie" is OpenAPI 3.2 only');
        else if (key === 'schema') schema(member, at);
        else if (key === 'content') content(member, at);
        else if (key === 'examples') mapOf(member, example, at);
      },
      pointer,
    ),
  );

  const requestBody = unlessReference((value, pointer) =>
    members(
      value,
      (key, member, at) => {
        if (key === 'content') content(member, at);
      },
      pointer,
    ),
  );

  const response = unlessReference((value, pointer) =>
    members(
      value,
      (key, member, at) => {
        if (key === 'summary') field(at, key);
        else if (key === 'headers') mapOf(member, header, at);
        else if (key === 'content') content(member, at);
      },
      pointer,
    ),
  );

  const callback = unlessReference((value, pointer) => mapOf(value, pathItem, pointer));

  function operation(value: unknown, pointer: string): void {
    members(
      value,
      (key, member, at) => {
        if (key === 'parameters') eachOf(member, parameter, at);
        else if (key === 'requestBody') requestBody(member, at);
        else if (key === 'responses') mapOf(member, response, at);
        else if (key === 'callbacks') mapOf(member, callback, at);
        else if (key === 'servers') servers(member, at);
      },
      pointer,
    );
  }

  // A Path Item's `$ref` is one of its fields (siblings allowed), so only the reference itself is not followed.
  function pathItem(value: unknown, pointer: string): void {
    members(
      value,
      (key, member, at) => {
        if (key === 'query') report(at, '"query" (the HTTP QUERY method) is an OpenAPI 3.2 field');
        else if (key === 'additionalOperations') field(at, key);
        else if (OPERATION_METHODS.has(key)) operation(member, at);
        else if (key === 'parameters') eachOf(member, parameter, at);
        else if (key === 'servers') servers(member, at);
      },
      pointer,
    );
  }

  const securityScheme = unlessReference((value, pointer) =>
    members(
      value,
      (key, member, at) => {
        if (key === 'deprecated' || key === 'oauth2MetadataUrl') field(at, key);
        else if (key === 'flows') {
          members(
            member,
            (k, _m, p) => {
              if (k === 'deviceAuthorization') field(p, k);
            },
            at,
          );
        }
      },
      pointer,
    ),
  );

  function components(value: unknown, pointer: string): void {
    members(
      value,
      (key, member, at) => {
        switch (key) {
          case 'mediaTypes':
            field(at, key);
            break;
          case 'schemas':
            mapOf(member, schema, at);
            break;
          case 'responses':
            mapOf(member, response, at);
            break;
          case 'parameters':
            mapOf(member, parameter, at);
            break;
          case 'examples':
            mapOf(member, example, at);
            break;
          case 'requestBodies':
            mapOf(member, requestBody, at);
            break;
          case 'headers':
            mapOf(member, header, at);
            break;
          case 'securitySchemes':
            mapOf(member, securityScheme, at);
            break;
          case 'callbacks':
            mapOf(member, callback, at);
            break;
          case 'pathItems':
            mapOf(member, pathItem, at);
            break;
          default:
            break;
        }
      },
      pointer,
    );
  }

  function tags(value: unknown, pointer: string): void {
    eachOf(
      value,
      (tag, at) =>
        members(
          tag,
          (key, _member, p) => {
            if (key === 'summary' || key === 'parent' || key === 'kind') field(p, key);
          },
          at,
        ),
      pointer,
    );
  }

  members(
    document,
    (key, member, at) => {
      switch (key) {
        case '$self':
          field(at, key);
          break;
        case 'servers':
          servers(member, at);
          break;
        case 'paths':
        case 'webhooks':
          mapOf(member, pathItem, at);
          break;
        case 'components':
          components(member, at);
          break;
        case 'tags':
          tags(member, at);
          break;
        default:
          break;
      }
    },
    '#',
  );
  return found;
}
