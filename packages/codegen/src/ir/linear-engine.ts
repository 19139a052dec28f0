/**
 * The linear matcher of the generated validators (templates/validators/linear-regex.ts), loaded
 * for the generator's own use: the generator checks examples and defaults, and decides how each
 * pattern is matched, with the very code it copies into the output. The template is TypeScript
 * outside this package's compiled sources, so it is bundled with esbuild once, on first use.
 */
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

export interface LinearMatcherLike {
  test(input: string): boolean;
}

interface LinearEngine {
  LinearMatcher: new (source: string, flags: 'u' | '') => LinearMatcherLike;
  linearMatchable(source: string, flags: 'u' | ''): true | string;
}

const TEMPLATE = fileURLToPath(new URL('../../templates/validators/linear-regex.ts', import.meta.url));

let engine: LinearEngine | undefined;

function load(): LinearEngine {
  if (!engine) {
    const bundled = buildSync({ entryPoints: [TEMPLATE], bundle: true, format: 'cjs', platform: 'neutral', target: 'es2022', write: false });
    const module = { exports: {} as LinearEngine };
    // The bundle is this package's own template, self-contained (it imports only its sibling).
    new Function('module', 'exports', bundled.outputFiles[0]!.text)(module, module.exports);
    engine = module.exports;
  }
  return engine;
}

/** A matcher of `source` linear in the input; throws when the pattern holds a backreference or a lookaround. */
export function linearMatcher(source: string, flags: 'u' | ''): LinearMatcherLike {
  return new (load().LinearMatcher)(source, flags);
}

/** True when the linear matcher can match `source`; otherwise why not (`it holds a backreference`). */
export function linearMatchable(source: string, flags: 'u' | ''): true | string {
  return load().linearMatchable(source, flags);
}
