import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/generated.js';

interface DryTask {
  taskId: string;
  dependencies: string[];
  command: string;
}

/** The tasks turbo would run for `task`, with their direct dependencies (nothing is run). */
function plan(task: string): DryTask[] {
  const turbo = path.join(REPO_ROOT, 'node_modules/.bin/turbo');
  const out = execFileSync(turbo, ['run', task, '--dry=json'], { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 256 * 1024 * 1024 });
  // Packages without the script are listed too, with a placeholder command: they run nothing.
  return (JSON.parse(out) as { tasks: DryTask[] }).tasks.filter((t) => t.command !== '<NONEXISTENT>');
}

describe('the task graph', () => {
  it('lints without generating anything, so a broken $ref cannot keep the linter from running', () => {
    const tasks = plan('lint');
    expect(tasks.map((t) => t.taskId)).toContain('@bank-data-sharing/spec#lint');
    // The lint rule for super-linear patterns is the generator's own code, so the generator's
    // package (and what it builds on) is built first; neither build reads spec/.
    expect(tasks.filter((t) => !t.taskId.endsWith('#lint')).map((t) => t.taskId).sort()).toStrictEqual([
      '@bank-data-sharing/codegen#build',
      '@bank-data-sharing/wire#build',
    ]);
  });

  it('runs the generate tasks one after another, so that a spec error stops the rest and is printed once', () => {
    const generate = plan('generate').filter((t) => t.taskId.endsWith('#generate'));
    const ids = generate.map((t) => t.taskId).sort();
    expect(ids).toStrictEqual([
      '@bank-data-sharing/client#generate',
      '@bank-data-sharing/server-stubs#generate',
      '@bank-data-sharing/spec#generate',
      '@bank-data-sharing/validators#generate',
    ]);
    // A chain: every generate task but the first waits for exactly one other.
    const waitsFor = generate.map((t) => t.dependencies.filter((d) => d.endsWith('#generate')));
    expect(waitsFor.filter((d) => d.length === 0)).toHaveLength(1);
    expect(waitsFor.filter((d) => d.length === 1)).toHaveLength(3);
    expect(new Set(waitsFor.flat()).size).toBe(3);
  });
});
