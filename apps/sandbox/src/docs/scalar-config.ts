/**
 * The Scalar configuration of a reference page: the document inline (so a static copy works
 * from disk, where a page cannot fetch files), and everything that would reach past the
 * loopback turned off.
 */
import type { OpenApiDocument } from './spec-documents.js';

/** Credentials the try-it console starts with (the sandbox's seeded token). */
export interface TryItCredentials {
  readonly accessToken: string;
}

export interface ScalarConfigInput {
  readonly document: OpenApiDocument;
  /** Shown in the browser tab. */
  readonly title: string;
  /** Whether the page may send requests (only where the sandbox hub answers them). */
  readonly tryIt: boolean;
  /** Prefilled into every OAuth 2.0 scheme of the document when given. */
  readonly credentials?: TryItCredentials;
}

/** The token put into each OAuth 2.0 flow of each scheme, keyed as Scalar's `authentication.securitySchemes` wants. */
function prefilledSchemes(document: OpenApiDocument, accessToken: string): Record<string, unknown> {
  const components = document['components'] as { securitySchemes?: Record<string, { type?: string; flows?: Record<string, unknown> }> } | undefined;
  const out: Record<string, unknown> = {};
  for (const [name, scheme] of Object.entries(components?.securitySchemes ?? {})) {
    if (scheme.type === 'oauth2') {
      out[name] = { flows: Object.fromEntries(Object.keys(scheme.flows ?? {}).map((flow) => [flow, { token: accessToken }])) };
    } else if (scheme.type === 'http' && scheme['scheme' as keyof typeof scheme] === 'bearer') {
      out[name] = { token: accessToken };
    }
  }
  return out;
}

/** The object handed to `Scalar.createApiReference`. */
export function scalarConfig(input: ScalarConfigInput): Record<string, unknown> {
  return {
    content: input.document,
    metaData: { title: input.title },
    // Nothing from the network: no web fonts, no telemetry, no request proxy, no MCP or
    // developer-tools panels (they talk to Scalar's services).
    withDefaultFonts: false,
    telemetry: false,
    showDeveloperTools: 'never',
    mcp: { disabled: true },
    // The "Ask AI" agent is on by default on localhost; it talks to Scalar's servers.
    agent: { disabled: true },
    hideClientButton: !input.tryIt,
    hideTestRequestButton: !input.tryIt,
    persistAuth: false,
    documentDownloadType: 'json',
    // Every tag open: the sidebar then lists every operation by its summary.
    defaultOpenAllTags: true,
    ...(input.credentials === undefined
      ? {}
      : {
          authentication: {
            // The data operations use the customer's token; the sandbox token is that one.
            preferredSecurityScheme: 'UserOAuth2Security',
            securitySchemes: prefilledSchemes(input.document, input.credentials.accessToken),
          },
        }),
  };
}
