// Streams of OpenAPI 3.2 (`itemSchema`): 100,000 small Server-Sent Events through the generated
// router and client of the 3.2 test document, checked item by item on both ends, against the
// same events written and parsed with validation off.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate, transpileDir } from '../src/lib/generated.mjs';
import { repoRoot, scratchDir } from '../src/lib/paths.mjs';
import { runMeasured } from '../src/lib/proc.mjs';

const worker = fileURLToPath(new URL('../src/workers/sse-stream.mjs', import.meta.url));
const FIXTURE = path.join(repoRoot, 'packages/codegen/test/fixtures/openapi-3.2.yaml');
const EVENTS = 100_000;

export default {
  id: 'streams',
  title: 'Streams (OpenAPI 3.2 Server-Sent Events)',
  description: '100,000 small events through the generated router and client, validated item by item vs validation off',
  async run(ctx) {
    const dir = scratchDir('streams');
    ctx.progress('generate + transpile the 3.2 test document (validators, server, client)');
    generate(FIXTURE, dir, 'validators,server,client');
    transpileDir(dir);
    const rounds = ctx.quick ? 3 : 7;
    const warmups = 1;
    const configFile = path.join(dir, 'worker-streams.json');
    writeFileSync(configFile, JSON.stringify({ dir, events: EVENTS, rounds, warmups }));
    ctx.progress(`stream ${EVENTS.toLocaleString('en-US')} events per read, ${rounds} rounds per setup`);
    const res = runMeasured({ args: [worker, configFile], timeoutMs: 600_000 });
    const report = JSON.parse(res.stdout.trim().split('\n').pop() || '{}');
    if (!report.ok) throw new Error(`streams worker: ${report.error ?? res.stderr.slice(0, 500)}`);
    ctx.note(
      `One process runs the router (on Express, 127.0.0.1) and the client reading it, so a rate is what one core does for both ends. ` +
        `Each read is one GET of ${EVENTS.toLocaleString('en-US')} events (id, event, a 60-byte JSON data line), from the request to the last item; ` +
        `${warmups} warm-up read per setup, then ${rounds} rounds with the setups alternating. Validated: the router checks each event against the item schema before writing it and the client checks each one it reads; ` +
        'unvalidated: the same router and client with validateResponses and validate off.',
    );
    const { validated, unvalidated } = report.rates;
    const runs = `${rounds} reads`;
    ctx.row({ id: 'sse-validated', label: 'events, validated on both ends', unit: 'events/s', samples: validated, runs });
    ctx.row({ id: 'sse-unvalidated', label: 'events, validation off', unit: 'events/s', samples: unvalidated, runs });
    ctx.row({
      id: 'sse-ratio',
      label: 'validated ÷ validation off',
      unit: '×',
      samples: validated.map((x, i) => x / unvalidated[i]),
      runs: `${rounds} rounds`,
      goal: { text: '≥ 0.5×', test: (m) => m >= 0.5 },
    });
  },
};
