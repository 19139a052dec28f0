/**
 * A mock server of any OpenAPI 3.0/3.1 file: the generated router (exact request
 * validation, the publisher's error contract, declared security) in front of the generated
 * mocks, served with `node:http`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Diagnostic, OperationIR } from '../ir/types.js';
import { curlLine } from './curl.js';
import { mockAuthorize } from './credentials.js';
import { mockHandlers } from './handlers.js';
import { loadMockApi, type LoadedApi, type LoadOptions } from './load-api.js';
import type { OperationSchemas } from './loaded-modules.js';
import { callInputOf, sampleRequest, sampleRequestParts, type SampledCallInput, type SampledRequest, type SampleRequestOptions } from './sample-request.js';
import { mockSigning, mockVerification } from './signed-bodies.js';

export interface MockServerOptions extends LoadOptions {
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /** With the request, decides every generated value (default 1). */
  seed?: number;
  /** Milliseconds to wait before each answer (default 0). */
  delay?: number;
  /** Generated data by default, instead of the spec's examples where they validate. */
  dynamic?: boolean;
  /** Path the API is served under (default: the path of the spec's first server). */
  prefix?: string;
  /** Told about answers that could not be made or broke the contract (default: standard error). */
  onError?: (error: unknown, context: { operationId?: string | undefined; phase: string }) => void;
  /**
   * Sign answers as HS256 JWS with the mock's published secret (`MOCK_JWS_SECRET`), so that
   * an operation answering only `application/jwt` is answered instead of refused 406 (default false).
   */
  signAnswers?: boolean;
}

/** A running mock server. */
export interface MockServer {
  /** Base URL of the API: origin and path prefix, e.g. `http://127.0.0.1:4010/open-finance/account-information/v2.2`. */
  readonly url: string;
  readonly origin: string;
  readonly prefix: string;
  readonly port: number;
  /** The API's title and `info.version`. */
  readonly api: { readonly title: string; readonly version: string };
  /** Every operation served, in the file's order. */
  readonly operations: ReadonlyArray<{ readonly name: string; readonly operationId: string; readonly method: string; readonly path: string }>;
  /**
   * Operations whose success answers the spec declares only as `application/jwt`: the mock
   * signs nothing, so the router answers them 406 (their operationIds).
   */
  readonly signedOnly: readonly string[];
  /** The generated validators' `operations`: what requests and answers are checked against. */
  readonly schemas: Readonly<Record<string, OperationSchemas>>;
  /** Warnings and notes of the generator. */
  readonly diagnostics: readonly Diagnostic[];
  /**
   * Milliseconds spent generating the code, writing it as JavaScript (types stripped),
   * importing it, and from there to listening.
   */
  readonly timings: { readonly generate: number; readonly write: number; readonly load: number; readonly listen: number };
  /** A request the server accepts for operation `name` (credentials, parameters, body). */
  sampleRequest(name: string, options?: SampleRequestOptions): SampledRequest;
  /**
   * The same request as a generated client takes it (`client[name](input)`): parameters by
   * place and the body with its media type; give the client any well-formed credentials.
   */
  sampleCallInput(name: string, options?: SampleRequestOptions): SampledCallInput;
  /** A `curl` line for the first GET operation (undefined when there is none). */
  curlExample(): string | undefined;
  /** Stops listening, ends open connections and removes the generated folder. */
  close(): Promise<void>;
}

const DAY = 86_400_000;

function defaultOnError(error: unknown, context: { operationId?: string | undefined; phase: string }): void {
  process.stderr.write(`[mock] ${context.phase} error${context.operationId ? ` in ${context.operationId}` : ''}: ${error instanceof Error ? error.message : String(error)}\n`);
}

/** Every success answer of `op` has content, and only signed content. */
function signedOnly(op: OperationIR, bodyKind: (contentType: string) => string): boolean {
  const success = op.responses.filter((r) => r.status.startsWith('2'));
  return success.length > 0 && success.every((r) => r.content.length > 0 && r.content.every((m) => bodyKind(m.contentType) === 'jwt'));
}

/**
 * Generates the spec's validators, server and mocks into a temporary folder and serves
 * them. Throws `MockSpecError` (with the diagnostics) for a file the generator refuses.
 *
 * @example
 * const server = await startMockServer({ spec: 'openapi.yaml', port: 0 });
 * const res = await fetch(`${server.url}/pets`);
 * await server.close();
 */
export async function startMockServer(options: MockServerOptions): Promise<MockServer> {
  const { port, host, seed, delay, dynamic, prefix, onError, signAnswers, ...load } = options;
  const loaded = await loadMockApi(load);
  return serveMockApi(loaded, { port, host, seed, delay, dynamic, prefix, onError, signAnswers }, true);
}

/** How a loaded API is served (the options of `startMockServer` beyond loading). */
export type ServeOptions = Pick<MockServerOptions, 'port' | 'host' | 'seed' | 'delay' | 'dynamic' | 'prefix' | 'onError' | 'signAnswers'>;

/**
 * Serves an API loaded already (`loadMockApi`). With `owned`, closing the server also
 * removes the loaded API's folder.
 */
export async function serveMockApi(loaded: LoadedApi, options: ServeOptions, owned = false): Promise<MockServer> {
  const { port = 4010, host = '127.0.0.1', seed = 1, delay = 0, dynamic = false, prefix, onError = defaultOnError, signAnswers = false } = options;
  const listenStarted = performance.now();
  let server: Server | undefined;
  try {
    const operationIds = new Map(loaded.api.operations.map((op) => [op.name, op.operationId]));
    // Answers are made near one time for the server's life: the same request, the same bytes.
    const now = Math.floor(Date.now() / DAY) * DAY;
    let router: ReturnType<typeof loaded.server.createRouter> | undefined;
    const handlers = mockHandlers({
      loaded,
      seed,
      dynamic,
      now,
      // The router decides its prefix (the option, else the spec's server path); handlers run
      // only once it exists.
      get prefix() {
        return router?.prefix ?? '';
      },
      onError: (error, name) => onError(error, { operationId: operationIds.get(name), phase: 'mock' }),
      signs: signAnswers,
    });
    router = loaded.server.createRouter(handlers, {
      ...(prefix !== undefined ? { prefix } : {}),
      authorize: mockAuthorize(loaded.api.securitySchemes),
      verification: mockVerification(),
      ...(signAnswers ? { signing: mockSigning() } : {}),
      onError: (error: unknown, context: { operationId?: string; phase: string }) => onError(error, context),
      onMissingHandlers: () => {},
    });
    const serve = router;
    const timers = new Set<NodeJS.Timeout>();
    const sockets = new Set<Socket>();
    server = createServer((req, res) => {
      if (delay <= 0) return serve(req, res);
      const timer = setTimeout(() => {
        timers.delete(timer);
        serve(req, res);
      }, delay);
      timers.add(timer);
    });
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    const listening = server;
    await new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      listening.listen(port, host, () => {
        listening.removeListener('error', reject);
        resolve();
      });
    });
    const address = listening.address() as AddressInfo;
    const origin = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
    const url = `${origin}${serve.prefix}`;
    const listen = performance.now() - listenStarted;
    let closing: Promise<void> | undefined;
    return {
      url,
      origin,
      prefix: serve.prefix,
      port: address.port,
      api: { title: loaded.api.title, version: loaded.api.version },
      operations: loaded.api.operations.map(({ name, operationId, method, path }) => ({ name, operationId, method: method.toUpperCase(), path })),
      signedOnly: signAnswers ? [] : loaded.api.operations.filter((op) => signedOnly(op, loaded.runtime.bodyKind)).map((op) => op.operationId),
      schemas: loaded.validators.operations,
      diagnostics: loaded.diagnostics,
      timings: { ...loaded.timings, listen },
      sampleRequest: (name, sampleOptions) => sampleRequest(loaded, name, { now, ...sampleOptions }),
      sampleCallInput: (name, sampleOptions) => callInputOf(sampleRequestParts(loaded, name, { now, ...sampleOptions })),
      curlExample: () => {
        const first = loaded.api.operations.find((op) => op.method === 'get');
        if (!first) return undefined;
        try {
          return curlLine(url, sampleRequest(loaded, first.name, { now }));
        } catch {
          // Parameters no value could be made for: the base URL alone says enough.
          return undefined;
        }
      },
      close: () =>
        (closing ??= (async () => {
          for (const timer of timers) clearTimeout(timer);
          await new Promise<void>((resolve) => {
            listening.close(() => resolve());
            for (const socket of sockets) socket.destroy();
          });
          if (owned) await loaded.remove();
        })()),
    };
  } catch (error) {
    server?.close();
    if (owned) await loaded.remove();
    throw error;
  }
}
