/**
 * `npm run docs`: writes the API docs portal as a static folder (default `docs-site/` at the
 * repository root; `--out <dir>` elsewhere, relative to the working folder).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SPEC_DIR } from './docs/catalog.js';
import { writeStaticSite } from './docs/static-site.js';
import { runMain } from './cli/run-main.js';

const USAGE = 'usage: npm run docs [-- --out <dir>]';

async function main(): Promise<number> {
  let out: string;
  try {
    const { values } = parseArgs({ options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true });
    if (values.help) {
      console.log(USAGE);
      return 0;
    }
    out = values.out === undefined ? path.join(path.dirname(SPEC_DIR), 'docs-site') : path.resolve(values.out);
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { files } = await writeStaticSite(out);
  console.log(`API docs written to ${path.relative(process.cwd(), out) || '.'} (${files.length} files); open index.html there.`);
  return 0;
}

runMain(main);
