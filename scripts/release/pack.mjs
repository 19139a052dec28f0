#!/usr/bin/env node
// `npm run pack -- <dir>`: every package `pnpm release` would publish, built and written to
// <dir> as a tarball, for a team that has the repository but no registry. pnpm packs with
// `workspace:` ranges replaced by the real versions, so the tarballs install together with
// plain npm into any folder:
//
//   npm install <dir>/*.tgz
//
// A relative <dir> is read from the folder the command was started in (npm and pnpm pass it
// as INIT_CWD), not from the repository root that `npm run` changes to; run from any other
// folder (`node <repo>/scripts/release/pack.mjs` inside another npm script), from that folder.
import { mkdirSync, readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bin, capture, pnpm, publishedPackages, run } from './workspace.mjs';

const usage = 'usage: npm run pack -- <dir> [--no-build]';
const args = process.argv.slice(2);
if (args.includes('--help')) {
  console.log(usage);
  process.exit(0);
}
const noBuild = args.includes('--no-build');
const positional = args.filter((arg) => arg !== '--no-build');
if (positional.length !== 1 || positional[0].startsWith('-')) {
  console.error(`pack: ${positional.length === 0 ? 'the folder to write the tarballs to is missing' : `unexpected arguments: ${positional.join(' ')}`}\n${usage}`);
  process.exit(2);
}
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const runByNpmAtRoot = realpathSync(process.cwd()) === realpathSync(root);
const callerDir = process.env.INIT_CWD && runByNpmAtRoot ? process.env.INIT_CWD : process.cwd();
const destination = path.resolve(callerDir, positional[0]);
mkdirSync(destination, { recursive: true });

const packages = publishedPackages();
if (!noBuild) {
  console.log('== build');
  const filters = packages.flatMap(({ manifest }) => ['--filter', manifest.name]);
  const status = run(bin('turbo'), ['run', 'build', '--output-logs=errors-only', ...filters]);
  if (status !== 0) process.exit(status);
}

console.log(`\n== pack into ${destination}`);
const before = new Set(readdirSync(destination));
const { command, prefix } = pnpm();
const filters = packages.flatMap(({ manifest }) => ['--filter', manifest.name]);
// pnpm lists every file of every tarball; shown only when packing fails.
const packed = capture(command, [...prefix, '-r', ...filters, 'pack', '--pack-destination', destination]);
if (packed.status !== 0) {
  process.stdout.write(packed.stdout);
  process.stderr.write(packed.stderr);
  process.exit(packed.status);
}

const expected = packages.map(({ manifest }) => `${manifest.name.replace(/^@/, '').replace('/', '-')}-${manifest.version}.tgz`);
const missing = expected.filter((file) => !readdirSync(destination).includes(file));
if (missing.length > 0) {
  console.error(`pack: pnpm did not write ${missing.join(', ')}`);
  process.exit(1);
}
const written = expected.map((file) => path.join(destination, file));
console.log(`\npack: ${written.length} tarball(s)${before.size > 0 ? ' (the folder held other files already)' : ''}. Install them together, in the folder of your service:\n`);
const quoted = (file) => (/[\s"'$`\\]/.test(file) ? JSON.stringify(file) : file);
console.log(`  npm install ${written.map(quoted).join(' ')}\n`);
