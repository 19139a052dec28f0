/**
 * OpenAPI 3.2 tag `parent` chains that loop (two tags each the other's parent, a tag its own
 * parent). Nothing refuses them: the IR keeps each `parent` as written, without a diagnostic,
 * and the server stubs' `Tag: ...` line, which walks the chain, cuts it once it holds one
 * entry more than there are tags.
 *
 * The walk is synchronous: were its bound lost, an in-process call would never return and
 * would take the test worker with it. So the handlers module is built from the source with
 * esbuild and run in a `vm` context, whose timeout stops even a synchronous loop.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildIR, type BuiltIR } from '../../src/ir/build-ir.js';
import type { ApiIR } from '../../src/ir/types.js';
import { loadSpec } from '../../src/load/load-spec.js';
import { writeSpec } from '../helpers/generated.js';

const PRINT_HANDLERS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/emit/server/print-handlers.ts');

const OK = { '200': { description: 'ok' } };
const TAGS = [
  { name: 'a', summary: 'Alpha', parent: 'b' },
  { name: 'b', summary: 'Beta', parent: 'a' },
  { name: 'self', summary: 'Self', parent: 'self' },
  // No summary (shown by its name), and a parent that leads into the loop.
  { name: 'leaf', parent: 'a' },
];
const DOCUMENT = {
  openapi: '3.2.0',
  info: { title: 'Looping tags', version: '1.0.0' },
  tags: TAGS,
  paths: {
    '/a': { get: { operationId: 'inLoopOfTwo', tags: ['a'], responses: OK } },
    '/self': { get: { operationId: 'ownParent', tags: ['self'], responses: OK } },
    '/leaf': { get: { operationId: 'intoTheLoop', tags: ['leaf'], responses: OK } },
  },
};

/** `printHandlers(api)` from the source, stopped if it runs longer than `timeout` ms. */
async function handlersWithin(api: ApiIR, timeout: number): Promise<string> {
  const bundle = await build({ entryPoints: [PRINT_HANDLERS], bundle: true, write: false, format: 'iife', globalName: 'handlersModule', platform: 'neutral', logLevel: 'silent' });
  const context = vm.createContext({ api });
  vm.runInContext(bundle.outputFiles[0]!.text, context);
  return vm.runInContext("handlersModule.printHandlers(api, '', 'runtime', 'validators')", context, { timeout }) as string;
}

/** The `Tag: ...` line of the handler of `operationId`. */
function tagLineOf(handlers: string, operationId: string): string | undefined {
  const member = handlers.indexOf(`\n  ${operationId}(`);
  const doc = handlers.slice(handlers.lastIndexOf('/**', member), member);
  return /Tag: [^.]*\./.exec(doc.replace(/\n\s*\* /g, ' '))?.[0];
}

describe('tag parent chains that loop', () => {
  let built: BuiltIR;
  // Kept as an outcome rather than thrown, so that a walk that never ends fails the test
  // saying so, instead of the whole suite's setup.
  let printed: { handlers: string } | { error: unknown };
  const handlers = (): string => ('handlers' in printed ? printed.handlers : '');
  beforeAll(async () => {
    built = buildIR(await loadSpec(await writeSpec(DOCUMENT)));
    printed = await handlersWithin(built.api, 10_000).then(
      (text) => ({ handlers: text }),
      (error: unknown) => ({ error }),
    );
  });

  it('are kept as written, neither refused nor noted', () => {
    expect(built.api.tags).toEqual(TAGS);
    expect(built.api.diagnostics).toEqual([]);
  });

  it('are walked to an end when the handlers are printed', () => {
    expect('error' in printed ? String(printed.error) : undefined).toBeUndefined();
  });

  it('print a trail of one entry more than there are tags (4), in the handlers of a loop of two', () => {
    expect(tagLineOf(handlers(), 'inLoopOfTwo')).toBe('Tag: Alpha › Beta › Alpha › Beta › Alpha.');
  });

  it('print the same bounded trail for a tag that is its own parent', () => {
    expect(tagLineOf(handlers(), 'ownParent')).toBe('Tag: Self › Self › Self › Self › Self.');
  });

  it('keep the tag itself last when its chain leads into a loop', () => {
    expect(tagLineOf(handlers(), 'intoTheLoop')).toBe('Tag: Beta › Alpha › Beta › Alpha › leaf.');
  });
});
