// Scaffold: `codegen scaffold` as a whole process (Node start-up included) on the v2.2 file:
// a new folder, and an update of a folder scaffolded from v2.1. The update is timed with and
// without the type-check it runs by default.
import path from 'node:path';
import { codegenBin, repoRoot, scratchDir } from '../src/lib/paths.mjs';
import { runChecked, runMeasured } from '../src/lib/proc.mjs';
import { median, summarize } from '../src/lib/stats.mjs';

const V21 = path.join(repoRoot, 'spec/v2.1/account-information.yaml');
const V22 = path.join(repoRoot, 'spec/v2.2/account-information.yaml');

export default {
  id: 'scaffold',
  title: 'Scaffold',
  description: 'codegen scaffold of spec/v2.2 (new folder; update from v2.1, with and without the type-check), whole process',
  async run(ctx) {
    const runs = ctx.quick ? 3 : 7;
    const warmup = 1;
    ctx.note(
      `Each row: ${warmup} warm-up then ${runs} timed runs of "node packages/codegen/bin/codegen.mjs scaffold ..." from spawn to exit, ` +
        'each on a fresh folder under bench/.tmp (so the type-check resolves the workspace packages from bench/node_modules). ' +
        'An update starts from a folder scaffolded from v2.1 just before (not timed).',
    );
    const cases = [
      { id: 'scaffold-create-v2.2', label: 'scaffold spec/v2.2 into a new folder (wall)', from: undefined, args: [] },
      { id: 'scaffold-update-v2.2', label: 'scaffold update v2.1 → v2.2, files only (--no-typecheck) (wall)', from: V21, args: ['--no-typecheck'] },
      { id: 'scaffold-update-v2.2-typecheck', label: 'scaffold update v2.1 → v2.2 with its type-check (wall)', from: V21, args: [], noGoal: true },
    ];
    for (const c of cases) {
      ctx.progress(c.label);
      const times = [];
      const cpu = [];
      let failure;
      for (let i = 0; i < warmup + runs; i++) {
        const dir = path.join(scratchDir('scaffold'), 'handlers');
        if (c.from) runChecked({ args: [codegenBin, 'scaffold', '--spec', c.from, '--out', dir, '--server', '@bank-data-sharing/server-stubs/v2.1', '--quiet'] });
        const res = runMeasured({ args: [codegenBin, 'scaffold', '--spec', V22, '--out', dir, '--server', '@bank-data-sharing/server-stubs/v2.2', '--quiet', ...c.args], rss: true });
        if (res.status !== 0) {
          failure = `exit ${res.status}: ${(res.stderr || res.stdout).trim().split('\n').slice(-1)[0]}`;
          break;
        }
        if (i >= warmup) {
          times.push(res.ms / 1000);
          if (res.cpuMs !== undefined) cpu.push(res.cpuMs / 1000);
        }
      }
      if (failure) {
        ctx.skip({ id: c.id, label: c.label, reason: `scaffold failed (${failure})` });
        continue;
      }
      ctx.row({
        id: c.id,
        label: c.label,
        unit: 's',
        samples: times,
        runs: `${runs} + ${warmup} warm-up`,
        goal: c.noGoal ? undefined : { text: 'median < 2 s', test: (m) => m < 2 },
        detail: cpu.length ? `CPU time (user+sys) median ${median(cpu).toFixed(3)} s` : undefined,
        extra: cpu.length ? { cpuSeconds: summarize(cpu) } : undefined,
      });
    }
  },
};
