/**
 * Mutual TLS for the directory (section 5.4): requests go through an undici `Agent` that
 * presents the caller's transport certificate and key.
 */
import { Agent, fetch as undiciFetch } from 'undici';
import type { FetchLike } from '../runtime/index.js';

export interface MtlsCredentials {
  /** PEM certificate chain (the transport certificate registered in the directory). */
  cert: string | Buffer;
  /** PEM private key of the certificate. */
  key: string | Buffer;
  /** Passphrase of an encrypted key. */
  passphrase?: string;
  /** PEM CA certificates to trust instead of the system store (sandbox CAs, tests). */
  ca?: string | Buffer | Array<string | Buffer>;
}

export interface MtlsFetch {
  /** The agent that presents the certificate: the `dispatcher` option of any client of this package. */
  dispatcher: Agent;
  /** A fetch over that agent, for code that speaks `fetch`. */
  fetch: FetchLike;
  /** Closes the agent's connections (lets a CLI exit promptly). */
  close(): Promise<void>;
}

/**
 * A connection pool (and a fetch over it) that presents a client certificate.
 *
 * @example
 * const mtls = createMtlsFetch({ cert: readFileSync('transport.pem'), key: readFileSync('transport.key') });
 * const directory = createDirectoryClient({ endpoints, clientId, dispatcher: mtls.dispatcher });
 * // ...
 * await mtls.close();
 */
export function createMtlsFetch(credentials: MtlsCredentials): MtlsFetch {
  const agent = new Agent({
    connect: {
      cert: credentials.cert,
      key: credentials.key,
      ...(credentials.passphrase !== undefined ? { passphrase: credentials.passphrase } : {}),
      ...(credentials.ca !== undefined ? { ca: credentials.ca } : {}),
    },
  });
  const mtlsFetch: FetchLike = async (input, init) => {
    // undici's own fetch takes its Agent as `dispatcher`; its Response has the platform shape.
    const response = await undiciFetch(input, { ...(init as Record<string, unknown>), dispatcher: agent } as Parameters<typeof undiciFetch>[1]);
    return response as unknown as Response;
  };
  return { dispatcher: agent, fetch: mtlsFetch, close: () => agent.close() };
}
