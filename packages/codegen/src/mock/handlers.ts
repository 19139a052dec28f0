/**
 * The mock's handler of every operation: the answer of the generated `mocks[name]`, chosen
 * by the request's `Prefer` header and seeded by the request, in the shape the server
 * runtime's handlers return. A preference the operation cannot satisfy is answered in the
 * spec's own error contract (an `ApiError`), never by a crash.
 */
import type { LoadedApi } from './load-api.js';
import type { MockAnswer, OperationSchemas } from './loaded-modules.js';
import { sendableTypes } from './media-types.js';
import { pagedBody, pagedOperations, requestedPage, type PagedOperation, type PageRequest } from './paging.js';
import { listedOperations, listItems, pageOfList, requestedWindow, type ListedOperation } from './list-paging.js';
import { parsePrefer, PreferError, type MockPreferences } from './prefer.js';
import { requestSeed } from './request-seed.js';

/** What a handler reads of the router's validated request. */
export interface MockRequest {
  readonly query: Readonly<Record<string, unknown>>;
  readonly url: string;
  readonly raw: { readonly req: { readonly method?: string; readonly url?: string; readonly headers: Readonly<Record<string, string | string[] | undefined>> } };
}

/** What a handler returns: the server runtime's `HandlerResult`. */
export interface MockReply {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
  contentType?: string;
}

export interface MockHandlersOptions {
  readonly loaded: LoadedApi;
  /** The server's seed: with the request, it decides every generated value. */
  readonly seed: number;
  /** Generated data by default, instead of the spec's examples where they validate. */
  readonly dynamic: boolean;
  /** Dates are made near this time (fixed for the server's life, so answers stay the same). */
  readonly now: number;
  /** The router's path prefix: the seed reads the path below it, wherever the API is mounted. */
  readonly prefix: string;
  /** Told about answers the mock could not make (they go out as the spec's 500). */
  readonly onError?: (error: unknown, operation: string) => void;
  /** The router signs answers (application/jwt can be answered). */
  readonly signs?: boolean;
}

/** Headers that frame the HTTP message: the server writes them, never a mock. */
const FRAMING = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'trailer', 'content-type']);

/**
 * One handler per operation, keyed like the generated `Handlers`.
 *
 * @example
 * createRouter(mockHandlers({ loaded, seed: 1, dynamic: false, now, prefix }), { authorize })
 */
export function mockHandlers(options: MockHandlersOptions): Record<string, (request: MockRequest) => MockReply> {
  const paging = pagedOperations(options.loaded.api);
  const lists = listedOperations(options.loaded.api);
  const examples = examplesByOperation(options.loaded.api);
  const sendable = sendableTypes(options.loaded.api, options.loaded.runtime.bodyKind, options.signs ?? false);
  const handlers: Record<string, (request: MockRequest) => MockReply> = {};
  for (const name of Object.keys(options.loaded.validators.operations)) {
    const listed = paging.has(name) ? undefined : lists.get(name);
    handlers[name] = (request) =>
      answer({ options, name, request, paged: paging.get(name), listed, examples: examples.get(name), sendable: sendable.get(name) ?? new Map() });
  }
  return handlers;
}

interface Call {
  options: MockHandlersOptions;
  name: string;
  request: MockRequest;
  paged: PagedOperation | undefined;
  /** A list honouring a page size (list-paging.ts); never beside `paged`, this family's paging. */
  listed: ListedOperation | undefined;
  /** The canonical JSON of the spec's examples, by status key and media type: tells an example's list from a generated one. */
  examples: ReadonlyMap<string, ReadonlySet<string>> | undefined;
  /** The media types the mock can answer in, by status key. */
  sendable: ReadonlyMap<string, readonly string[]>;
}

function answer({ options, name, request, paged, listed, examples, sendable }: Call): MockReply {
  const { loaded } = options;
  const { ApiError, FAILURES } = loaded.runtime;
  const operation = loaded.validators.operations[name]!;
  const refuse = (message: string, path = 'Prefer') => {
    // 422 where the operation declares it (the request is well-formed, the wish is not), else 400.
    throw new ApiError(operation.responses['422'] ? 422 : 400, FAILURES.invalidParameter.code, message, { path });
  };
  const headers = request.raw.req.headers;
  let prefs: MockPreferences;
  try {
    prefs = parsePrefer(headers.prefer);
  } catch (error) {
    if (error instanceof PreferError) refuse(error.message);
    throw error;
  }
  // An operation that declares no response promises nothing: an empty success says the request was taken.
  if (Object.keys(operation.responses).length === 0 && prefs.code === undefined) return { status: 204, headers: {} };
  const statusKey = chosenStatus({ options, name, operation, code: prefs.code, refuse });
  const contentType = chosenContentType({ options, name, statusKey, types: sendable.get(statusKey) ?? [], accept: headers.accept });
  const declaredTypes = Object.keys(operation.responses[statusKey]?.content ?? {});
  if (contentType === undefined && declaredTypes.length > 0) {
    // Signed or XML only, say: better said plainly than sent as a 500 or as "[object Object]".
    throw new ApiError(FAILURES.notAcceptable.status, FAILURES.notAcceptable.code, `The mock cannot write ${statusKey} as ${declaredTypes.join(' or ')}`);
  }
  if (prefs.example !== undefined) checkExample({ options, name, operation, statusKey, contentType, example: prefs.example, refuse });

  let page: PageRequest | undefined;
  if (paged && statusKey === paged.statusKey && prefs.example === undefined) {
    const asked = requestedPage(paged, request);
    if ('status' in asked) {
      const failure = asked.status === 404 ? FAILURES.notFound : FAILURES.invalidParameter;
      throw new ApiError(asked.status, failure.code, asked.message, { path: 'page' });
    }
    page = asked;
  }

  const target = (request.raw.req.url ?? '/').slice(options.prefix.length) || '/';
  let mock: MockAnswer;
  // HEAD is answered as GET is (the router routes it so): the same seed, the same length.
  const seed = requestSeed({ seed: options.seed, method: request.raw.req.method === 'HEAD' ? 'GET' : (request.raw.req.method ?? 'GET'), target });
  const call = {
    ...(prefs.code !== undefined ? { status: prefs.code } : {}),
    ...(contentType !== undefined ? { contentType } : {}),
    ...(prefs.example !== undefined ? { example: prefs.example } : { preferExamples: !(prefs.dynamic ?? options.dynamic) }),
    now: options.now,
  };
  try {
    mock = loaded.mocks[name]!({ ...call, seed });
  } catch (error) {
    if (!(error instanceof loaded.mockRuntime.MockError)) throw error;
    options.onError?.(error, name);
    throw new ApiError(500, FAILURES.internal.code, `The mock could not make this answer: ${error.message.split('\n')[0]}`);
  }

  let body = mock.body;
  if (page && paged && mock.contentType !== undefined) {
    const candidate = pagedBody(paged, body, page);
    // The schema has the last word: a page it refuses (TotalPages capped, say) stays unpaged.
    if (operation.responses[mock.statusKey]?.content[mock.contentType]?.safeParse(candidate).success) body = candidate;
  }
  const window = listed && mock.statusKey === listed.statusKey && mock.contentType !== undefined ? requestedWindow(listed, request.query) : undefined;
  if (listed && window && mock.contentType !== undefined) {
    const fromExample = examples?.get(mock.statusKey)?.has(`${mock.contentType}\u0000${canonicalJson(body)}`) ?? false;
    // Further generated lists for a page larger than one made: the same call, seeds of their own.
    const more = (k: number) => {
      try {
        return listItems(listed, loaded.mocks[name]!({ ...call, preferExamples: false, seed: seed + k }).body);
      } catch {
        return undefined;
      }
    };
    const candidate = pageOfList(listed, body, window, fromExample, more);
    if (operation.responses[mock.statusKey]?.content[mock.contentType]?.safeParse(candidate).success) body = candidate;
  }
  const out: MockReply = { status: mock.status, headers: Object.fromEntries(Object.entries(mock.headers).filter(([h]) => !FRAMING.has(h.toLowerCase()))) };
  if (mock.contentType !== undefined) {
    // A signed answer: the router makes the claims (iss, exp, nbf, iat) around the `message`.
    const signedClaims = loaded.runtime.bodyKind(mock.contentType) === 'jwt' && body !== null && typeof body === 'object' && 'message' in body;
    out.body = signedClaims ? (body as { message: unknown }).message : body;
    out.contentType = mock.contentType;
  }
  return out;
}

/** The declared status key for `Prefer: code=` (the first 2xx without it); refused when none matches. */
function chosenStatus({ options, name, operation, code, refuse }: { options: MockHandlersOptions; name: string; operation: OperationSchemas; code: number | undefined; refuse: (m: string) => never }): string {
  try {
    return options.loaded.mockRuntime.chooseStatus(name, Object.keys(operation.responses), code);
  } catch (error) {
    if (!(error instanceof options.loaded.mockRuntime.MockError)) throw error;
    return refuse(`Prefer: code=${code} is not a status of ${operation.operationId} (declared: ${Object.keys(operation.responses).join(', ')})`);
  }
}

/**
 * The media type of the answer: what `Accept` prefers among the status's types the mock can
 * send (media-types.ts), JSON first; undefined where the status has no content. An `Accept`
 * the spec could satisfy but the mock cannot (XML, say) gets 406.
 */
function chosenContentType({ options, name, statusKey, types, accept }: { options: MockHandlersOptions; name: string; statusKey: string; types: readonly string[]; accept: string | string[] | undefined }): string | undefined {
  const { runtime, mockRuntime } = options.loaded;
  if (types.length === 0) return undefined;
  const first = mockRuntime.chooseContentType(name, statusKey, types, undefined);
  const offers = first === undefined ? [...types] : [first, ...types.filter((t) => t !== first)];
  const wanted = Array.isArray(accept) ? accept.join(', ') : accept;
  const chosen = runtime.negotiate(wanted, offers);
  if (chosen !== undefined) return chosen;
  // Errors are sent whatever Accept says, as the router sends its own.
  if (!statusKey.startsWith('2')) return offers[0];
  throw new runtime.ApiError(runtime.FAILURES.notAcceptable.status, runtime.FAILURES.notAcceptable.code, `The mock answers ${statusKey} only as ${offers.join(', ')} (Accept: ${wanted})`);
}

/**
 * Refuses `Prefer: example=` naming no example of the answer's status and media type, or one
 * the contract refuses (a writeOnly member in a response, say): sent, it would be a 500.
 */
function checkExample({ options, name, operation, statusKey, contentType, example, refuse }: { options: MockHandlersOptions; name: string; operation: OperationSchemas; statusKey: string; contentType: string | undefined; example: string; refuse: (m: string) => never }): void {
  const examples = contentType === undefined ? {} : (options.loaded.model.operations[name]?.responses[statusKey]?.content[contentType]?.examples ?? {});
  const where = `${statusKey}${contentType ? ` ${contentType}` : ''}`;
  if (!Object.hasOwn(examples, example)) {
    const names = Object.keys(examples);
    refuse(`Prefer: example=${example}: ${where} has no example of that name` + (names.length > 0 ? ` (the spec names ${names.join(', ')})` : ' (the spec gives none here)'));
  }
  const checked = operation.responses[statusKey]?.content[contentType!]?.safeParse(examples[example]);
  if (checked && !checked.success) {
    const issue = checked.error?.issues[0];
    const at = issue && issue.path.length > 0 ? `/${issue.path.map(String).join('/')}: ` : '';
    refuse(`Prefer: example=${example}: the spec's example of ${where} does not validate (${at}${issue?.message ?? 'refused'})`);
  }
}

/** JSON text with members in sorted order: equal for equal values. */
function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
    .join(',')}}`;
}

/** Per operation: its examples' canonical JSON by status key, each behind its media type. */
function examplesByOperation(api: LoadedApi['api']): Map<string, Map<string, Set<string>>> {
  const out = new Map<string, Map<string, Set<string>>>();
  for (const op of api.operations) {
    const byStatus = new Map<string, Set<string>>();
    for (const response of op.responses) {
      const set = new Set<string>();
      for (const media of response.content) for (const example of media.examples) set.add(`${media.contentType}\u0000${canonicalJson(example.value)}`);
      if (set.size > 0) byStatus.set(response.status, set);
    }
    out.set(op.name, byStatus);
  }
  return out;
}
