#!/usr/bin/env node
// Entry point of `bds-directory`. The CLI is compiled TypeScript in dist/.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/directory/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('bds-directory: not built yet. Run "pnpm build" at the repository root first.\n');
  process.exit(1);
}
const { runCli } = await import(cli.href);
process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
