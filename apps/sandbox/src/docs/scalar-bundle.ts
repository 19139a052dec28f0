/**
 * Scalar's standalone browser bundle, read from the installed package (never copied into
 * the repository): the reference pages load it from the sandbox or from the static build.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

/** The file name pages ask for, under the docs root's `assets/`. */
export const SCALAR_BUNDLE_NAME = 'scalar-api-reference.js';

/** Absolute path of `@scalar/api-reference`'s standalone browser bundle in node_modules. */
export function scalarBundlePath(): string {
  // The package's exports map has no entry for the browser bundle, so it is found next to
  // the package's main entry (dist/index.js → dist/browser/standalone.js).
  const main = createRequire(import.meta.url).resolve('@scalar/api-reference');
  return path.join(path.dirname(main), 'browser', 'standalone.js');
}
