#!/usr/bin/env node
// `pnpm generate`: turbo regenerates only what changed. `--check` and `--watch` go to the
// generator itself, which compares or watches every generated file at once.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const run = (command, commandArgs) => spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit' }).status ?? 1;
const turbo = path.join(root, 'node_modules', '.bin', 'turbo');

if (args.includes('--check') || args.includes('--watch')) {
  // The generator must be built before it can compare or watch anything.
  if (!existsSync(path.join(root, 'packages/codegen/dist/cli.js'))) {
    const built = run(turbo, ['run', 'build', '--filter=@bank-data-sharing/codegen', '--output-logs=errors-only']);
    if (built !== 0) process.exit(built);
  }
  process.exit(run(process.execPath, [path.join(root, 'packages/codegen/bin/codegen.mjs'), 'workspace', ...args]));
}
process.exit(run(turbo, ['run', 'generate', ...args]));
