/**
 * The copy of a TPP-facing spec served to the sandbox's own reference page: its server is
 * this hub, and the parameters a first request needs carry the sandbox's values as examples,
 * which Scalar's console starts from. The spec files themselves are untouched.
 */
import type { OpenApiDocument } from './spec-documents.js';

/** The values a try-it request starts with. */
export interface SandboxValues {
  /** Hub origin + the spec's path prefix. */
  readonly serverUrl: string;
  readonly consentId: string;
  /** The first account of the seeded consent. */
  readonly accountId: string | undefined;
  /** A fresh x-fapi-interaction-id (a UUID, as the spec asks). */
  readonly interactionId: string;
}

interface Parameter {
  name?: string;
  in?: string;
  example?: unknown;
  examples?: unknown;
}

/** The example a parameter gets in the sandbox copy, by where it is and its name. */
function sandboxExample(parameter: Parameter, values: SandboxValues): unknown {
  if (parameter.in === 'path' && parameter.name === 'ConsentId') return values.consentId;
  if (parameter.in === 'query' && parameter.name === 'baseConsentId') return values.consentId;
  if (parameter.in === 'path' && parameter.name === 'AccountId') return values.accountId;
  if (parameter.in === 'header' && parameter.name?.toLowerCase() === 'x-fapi-interaction-id') return values.interactionId;
  return undefined;
}

function prefill(parameter: Parameter, values: SandboxValues): void {
  const example = sandboxExample(parameter, values);
  if (example === undefined) return;
  parameter.example = example;
  // `examples` wins over `example` in most consoles; the sandbox value must be the one shown.
  delete parameter.examples;
}

/** The sandbox copy of a bundled TPP-facing document (changed in place and returned). */
export function sandboxDocument(document: OpenApiDocument, values: SandboxValues): OpenApiDocument {
  document['servers'] = [{ url: values.serverUrl, description: 'This sandbox hub (the token of the seeded consent is filled in)' }];
  const components = document['components'] as { parameters?: Record<string, Parameter> } | undefined;
  for (const parameter of Object.values(components?.parameters ?? {})) prefill(parameter, values);
  const paths = (document['paths'] ?? {}) as Record<string, Record<string, { parameters?: Parameter[] } | Parameter[]>>;
  for (const item of Object.values(paths)) {
    for (const [key, value] of Object.entries(item)) {
      const parameters = key === 'parameters' ? value : (value as { parameters?: Parameter[] }).parameters;
      if (Array.isArray(parameters)) for (const parameter of parameters) prefill(parameter, values);
    }
  }
  return document;
}
