/**
 * What the mock server reads from the generated code and the server runtime, as far as it
 * reads it. They are imported at run time from a temporary folder, so these structural
 * types are all the compiler knows of them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SchemaNode } from '../ir/types.js';

/** A zod schema, as far as checking goes. */
export interface Checkable {
  safeParse(value: unknown): { success: boolean; data?: unknown; error?: { issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }> } };
}

/** One entry of the validators' `operations`. */
export interface OperationSchemas {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly request: {
    readonly path: Checkable;
    readonly query: Checkable;
    readonly headers: Checkable;
    readonly cookies: Checkable;
    readonly body: undefined | { readonly required: boolean; readonly content: Readonly<Record<string, Checkable>> };
  };
  readonly responses: Readonly<Record<string, { readonly headers: Checkable; readonly content: Readonly<Record<string, Checkable>> }>>;
}

/** What a mock function returns. */
export interface MockAnswer {
  status: number;
  statusKey: string;
  contentType: string | undefined;
  headers: Record<string, string>;
  body: unknown;
}

export interface MockCallOptions {
  status?: string | number;
  contentType?: string;
  seed?: number;
  example?: string;
  preferExamples?: boolean;
  now?: number;
}

/** The generated router: a `(req, res, next?)` middleware. */
export interface Router {
  (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void;
  readonly prefix: string;
}

/** Seeded randomness of the mocks' runtime (random.ts). */
export interface Random {
  next(): number;
  int(min: number, max: number): number;
  fork(label: string | number): Random;
}

export interface SampleContext {
  schemas: Readonly<Record<string, unknown>>;
  random: Random;
  now: number;
  direction?: 'request' | 'response';
  json?: unknown;
}

/** The server runtime's `ApiError` constructor. */
export type ApiErrorClass = new (status: number, code: string, message: string, options?: { path?: string }) => Error;

export interface LoadedModules {
  readonly validators: {
    readonly operations: Readonly<Record<string, OperationSchemas>>;
    readonly jsonSchemas?: unknown;
  };
  readonly server: { createRouter(handlers: object, options: object): Router };
  readonly mocks: Readonly<Record<string, (options: MockCallOptions) => MockAnswer>>;
  readonly mockRuntime: {
    chooseStatus(name: string, keys: readonly string[], wanted: string | number | undefined): string;
    chooseContentType(name: string, status: string, types: readonly string[], wanted: string | undefined): string | undefined;
    MockError: new (...args: never[]) => Error;
    jsonNodeSampler(schemas: unknown): (now: number) => unknown;
  };
  readonly model: {
    readonly schemas: Readonly<Record<string, unknown>>;
    readonly operations: Readonly<Record<string, { responses: Readonly<Record<string, { content: Readonly<Record<string, { examples: Readonly<Record<string, unknown>> }>> }>> }>>;
  };
  readonly sample: {
    sampleValid(node: SchemaNode, ctx: SampleContext, check: (value: unknown) => string | undefined, attempts?: number): unknown;
  };
  readonly random: { seededRandom(seed: number): Random };
  readonly runtime: {
    readonly ApiError: ApiErrorClass;
    negotiate(accept: string | undefined, offers: readonly string[]): string | undefined;
    bodyKind(contentType: string): 'json' | 'jwt' | 'form' | 'multipart' | 'text' | 'binary';
    readonly FAILURES: Readonly<Record<'invalidParameter' | 'notFound' | 'internal' | 'notAcceptable', { status: number; code: string }>>;
  };
}
