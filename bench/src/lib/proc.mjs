// Spawning measured child processes: wall time of the whole process (spawn to exit, so Node's
// own start-up is included) and, for Node children, their peak RSS via maxrss-hook.mjs.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './paths.mjs';

const hookUrl = new URL('./maxrss-hook.mjs', import.meta.url).href;
let counter = 0;

/**
 * Runs `node <args>` (or another command) to completion.
 * @param {object} o
 * @param {string} [o.command] default: this Node binary
 * @param {string[]} o.args
 * @param {boolean} [o.rss] measure peak RSS and CPU time (Node children only)
 * @param {number} [o.timeoutMs] hard bound on the child (default 120 s)
 * @returns {{ ms: number, maxRssKb: number | undefined, cpuMs: number | undefined, status: number | null, stdout: string, stderr: string, signal: string | null }}
 */
export function runMeasured({ command = process.execPath, args, cwd = repoRoot, env = {}, rss = false, timeoutMs = 120_000 }) {
  const rssFile = rss ? path.join(os.tmpdir(), `bds-bench-rss-${process.pid}-${counter++}`) : undefined;
  const fullArgs = rss ? ['--import', hookUrl, ...args] : args;
  const childEnv = { ...process.env, ...env, ...(rssFile ? { BENCH_MAXRSS_FILE: rssFile } : {}) };
  const started = performance.now();
  const res = spawnSync(command, fullArgs, { cwd, env: childEnv, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - started;
  let maxRssKb;
  let cpuMs;
  if (rssFile && existsSync(rssFile)) {
    const usage = JSON.parse(readFileSync(rssFile, 'utf8'));
    maxRssKb = usage.maxRSS;
    cpuMs = usage.cpuMicros / 1000;
    rmSync(rssFile, { force: true });
  }
  if (res.error) throw new Error(`${path.basename(command)} ${args.join(' ')}: ${res.error.message}`);
  return { ms, maxRssKb, cpuMs, status: res.status, signal: res.signal, stdout: res.stdout ?? '', stderr: res.stderr ?? '' };
}

/** Like runMeasured, but throws with the child's output when it does not exit 0. */
export function runChecked(options) {
  const res = runMeasured(options);
  if (res.status !== 0) {
    const what = [options.command ? path.basename(options.command) : 'node', ...options.args].join(' ');
    throw new Error(`${what} exited ${res.status ?? res.signal}:\n${(res.stderr || res.stdout).trim().slice(0, 2000)}`);
  }
  return res;
}
