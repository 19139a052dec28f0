#!/usr/bin/env node
// `pnpm release`: build, check, and publish every public package to the registry that the
// user's npm configuration names for the @bank-data-sharing scope.
//
//   pnpm release [--dry-run] [--tag <dist-tag>]
//
// The scope is not owned on the public npm registry, so publishing there could fail or, worse,
// push our names to where someone else may own them: the command refuses to run unless the
// scope has a registry of its own in .npmrc (`@bank-data-sharing:registry=<url>`).
// pnpm publishes with `workspace:` ranges replaced by the real versions, and skips a package
// whose version the registry already holds, so running it twice is harmless.
import { ROOT, SCOPE, bin, capture, pnpm, publishedPackages, run } from './workspace.mjs';
import path from 'node:path';

const args = process.argv.slice(2);
const dryRun = args.includes('--dry-run');
const tagAt = args.indexOf('--tag');
const tag = tagAt >= 0 ? args[tagAt + 1] : undefined;
if (args.includes('--help')) {
  console.log('usage: pnpm release [--dry-run] [--tag <dist-tag>]');
  process.exit(0);
}
const known = new Set(['--dry-run', '--tag', tag]);
const unknown = args.filter((arg) => !known.has(arg));
if (unknown.length > 0 || (tagAt >= 0 && !tag)) {
  console.error(`release: unknown or incomplete arguments: ${unknown.join(' ') || '--tag'}\nusage: pnpm release [--dry-run] [--tag <dist-tag>]`);
  process.exit(2);
}

const { command, prefix } = pnpm();
const configured = capture(command, [...prefix, 'config', 'get', `${SCOPE}:registry`]).stdout.trim();
if (!configured || configured === 'undefined') {
  console.error(
    [
      `release: no registry is configured for the ${SCOPE} scope.`,
      `The ${SCOPE} scope is not ours on the public npm registry: publish only to the team's own registry.`,
      'Add this line to .npmrc (the project\'s or your own), with your registry\'s address, and log in to it:',
      '',
      `  ${SCOPE}:registry=https://npm.your-company.example/`,
      '',
    ].join('\n'),
  );
  process.exit(1);
}
console.log(`release: ${SCOPE} packages go to ${configured}${dryRun ? ' (dry run)' : ''}`);

console.log('\n== build');
let status = run(bin('turbo'), ['run', 'build', '--output-logs=errors-only']);
if (status !== 0) process.exit(status);

console.log('\n== check');
status = run(process.execPath, [path.join(ROOT, 'scripts/release/check.mjs')]);
if (status !== 0) process.exit(status);

console.log('\n== publish');
const filters = publishedPackages().flatMap(({ manifest }) => ['--filter', manifest.name]);
const publish = [...prefix, '-r', ...filters, 'publish', '--no-git-checks', '--registry', configured];
if (dryRun) publish.push('--dry-run');
if (tag) publish.push('--tag', tag);
status = run(command, publish);
process.exit(status);
