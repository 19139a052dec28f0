// What the release scripts know about the workspace: which packages are published, and
// which spec versions each one carries.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SCOPE = '@bank-data-sharing';

/** Every package under packages/ that is not private: the ones `pnpm release` publishes. */
export function publishedPackages() {
  const base = path.join(ROOT, 'packages');
  return readdirSync(base, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(base, entry.name, 'package.json')))
    .map((entry) => {
      const dir = path.join(base, entry.name);
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
      return { dir, manifest };
    })
    .filter(({ manifest }) => manifest.private !== true)
    .sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));
}

/**
 * The APIs a package carries, by subpath (`v2.2`, `v2.2/lfi`, `directory`), each with the
 * version its spec file declares, read from the header of the generated index. Empty for a
 * package without generated code (the generator itself).
 */
export function specVersions(dir) {
  const generated = path.join(dir, 'src', 'generated');
  const found = {};
  const walk = (folder, prefix) => {
    if (!existsSync(folder)) return;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const subpath = prefix ? `${prefix}/${entry.name}` : entry.name;
      const index = path.join(folder, entry.name, 'index.ts');
      if (existsSync(index)) {
        const header = readFileSync(index, 'utf8').split('\n', 1)[0] ?? '';
        const version = /, version ([^)]+)\)\.?\s*$/.exec(header)?.[1];
        if (!version) throw new Error(`${path.relative(ROOT, index)}: no spec version in its header line`);
        found[subpath] = version;
      }
      walk(path.join(folder, entry.name), subpath);
    }
  };
  walk(generated, '');
  return Object.fromEntries(Object.entries(found).sort(([a], [b]) => a.localeCompare(b)));
}

/** The line a package's changelog gives under each release: what that version carries. */
export function specLine(versions) {
  const parts = Object.entries(versions).map(([subpath, version]) => `\`/${subpath}\` (spec ${version})`);
  return `Spec versions: ${parts.join(', ')}`;
}

/** The first `## <version>` section of a changelog, or undefined. */
export function latestChangelogSection(text) {
  const match = /^## (\S+)\s*$/m.exec(text);
  if (!match) return undefined;
  const rest = text.slice(match.index + match[0].length);
  const next = /^## /m.exec(rest);
  return { version: match[1], body: next ? rest.slice(0, next.index) : rest };
}

/** Runs a command, inheriting the terminal; returns its exit code. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

/** Runs a command and returns what it printed. */
export function capture(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', ...options });
  if (result.error) throw result.error;
  return { status: result.status ?? 1, stdout: result.stdout, stderr: result.stderr };
}

/** The pnpm the workspace pins, run through the current Node. */
export function pnpm() {
  const cli = path.join(ROOT, 'node_modules', 'pnpm', 'bin', 'pnpm.cjs');
  return { command: process.execPath, prefix: [cli] };
}

export function bin(name) {
  return path.join(ROOT, 'node_modules', '.bin', name);
}
