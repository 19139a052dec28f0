// A tool the comparison suites run beside ours (Prism, Dredd), installed on demand into a
// folder under bench/.tmp with npm (no lock file, nothing saved), once, and reused while the
// installed copy passes `installed()`. A failed install is a reason to skip, never a crash.
import { mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './paths.mjs';

/**
 * @param {{ packageSpec: string, dir: string, installed: () => boolean, progress: (msg: string) => void, timeout: number, env?: NodeJS.ProcessEnv }} tool
 * @returns {{ ok: true, how: string } | { ok: false, reason: string }}
 */
export function installOnDemand({ packageSpec, dir, installed, progress, timeout, env = process.env }) {
  const where = path.relative(repoRoot, dir);
  if (installed()) return { ok: true, how: `reused ${where} (${packageSpec})` };
  progress(`installing ${packageSpec} into ${where} (once)`);
  mkdirSync(dir, { recursive: true });
  const started = performance.now();
  const res = spawnSync('npm', ['install', '--prefix', where, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', packageSpec], { cwd: repoRoot, encoding: 'utf8', timeout, env });
  if (res.error || res.status !== 0 || !installed()) {
    // npm's code line and its first message line, without stack lines or addresses.
    const lines = (res.stderr || res.stdout || '').split('\n').map((l) => l.replace(/^npm (error|ERR!)\s*/, '').trim()).filter((l) => l && !l.startsWith('at ') && !/^(syscall|errno)\b/.test(l));
    const why = (res.error ? res.error.message : `exit ${res.status ?? res.signal}: ${lines.slice(0, 2).join(' | ')}`).replace(/\b[a-z][a-z+.-]*:\/\/\S+/gi, '<address>');
    return { ok: false, reason: `installing ${packageSpec} failed (${why.slice(0, 300)})` };
  }
  return { ok: true, how: `installed ${packageSpec} into ${where} in ${((performance.now() - started) / 1000).toFixed(0)} s (npm install --no-save --no-package-lock)` };
}
