// What the figures were taken on, so that results from different machines are not compared blindly.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './paths.mjs';

const require = createRequire(import.meta.url);

function version(pkg) {
  try {
    return require(`${pkg}/package.json`).version;
  } catch {
    return undefined;
  }
}

/** The checked-out commit, read from .git without running git (best effort). */
function commit() {
  try {
    const gitDir = path.join(repoRoot, '.git');
    if (!existsSync(gitDir)) return undefined;
    const head = readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
    if (!head.startsWith('ref: ')) return head;
    const ref = head.slice(5);
    const loose = path.join(gitDir, ref);
    if (existsSync(loose)) return readFileSync(loose, 'utf8').trim();
    const packed = readFileSync(path.join(gitDir, 'packed-refs'), 'utf8');
    return packed.split('\n').find((l) => l.endsWith(` ${ref}`))?.split(' ')[0];
  } catch {
    return undefined;
  }
}

export function machineInfo() {
  const cpus = os.cpus();
  return {
    node: process.version,
    cpu: cpus[0]?.model?.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    loadAverageAtStart: os.loadavg().map((x) => Number(x.toFixed(2))),
    commit: commit(),
    tools: { typescript: version('typescript'), zod: version('zod'), ajv: version('ajv'), 'ajv-formats': version('ajv-formats') },
  };
}
