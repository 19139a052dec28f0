// Mock servers: our `codegen mock` beside Prism 5.16 (`prism mock`), on the same files and the
// same requests. Start-up (spawn to the first 200), throughput and latency of one list request
// under autocannon (generated data and static mode), the share of 2xx bodies of every GET
// operation that the generated validators accept, whether each serves under the file's server
// path, and the generation time of the `mocks` target alone.
//
// Prism is not a dependency of the repository: it is installed on demand into bench/.tmp/prism
// (once, reused while present) and its rows are skipped with the reason when that fails. Every
// server runs in its own child process on 127.0.0.1, bounded by time, and is killed at the end.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generate, transpileDir } from '../src/lib/generated.mjs';
import { codegenBin, display, OFFICIAL_MAIN, officialSpec, osTempDir, removeDir, repoRoot, scratchDir, scratchRoot } from '../src/lib/paths.mjs';
import { compileComponent, loadOpenApi, responseComponent } from '../src/lib/openapi-ajv.mjs';
import { installOnDemand } from '../src/lib/install-tool.mjs';
import { runMeasured } from '../src/lib/proc.mjs';
import { median, summarize } from '../src/lib/stats.mjs';
import { officialValidators } from '../src/lib/validator-runs.mjs';

const require = createRequire(import.meta.url);

const PRISM_VERSION = '5.16.0';
const PRISM_PACKAGE = `@stoplight/prism-cli@${PRISM_VERSION}`;
/** Where Prism is installed on demand: bench/.tmp/prism (gitignored, kept between runs). */
const prismDir = path.join(scratchRoot, 'prism');
const prismBin = path.join(prismDir, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
const codegenIndex = path.join(repoRoot, 'packages/codegen/dist/index.js');

/** A server that has not answered 200 within this long has failed to start. */
const START_TIMEOUT_MS = 90_000;
/** Each request of the validity pass. */
const REQUEST_TIMEOUT_MS = 15_000;
/** Added to every validity request (never declared by the files, so ignored by both tools) so that each of the N requests differs. */
const VARY_PARAM = 'bench';

/** Header values for the FAPI headers an operation declares (RFC 7231 date, a UUID, a documentation address). */
const FAPI_HEADERS = {
  'x-fapi-interaction-id': '6f0c1d2e-3b4a-4c5d-8e6f-7a8b9c0d1e2f',
  'x-fapi-auth-date': 'Mon, 05 Jan 2026 10:00:00 GMT',
  'x-fapi-customer-ip-address': '198.51.100.7',
  'x-customer-user-agent': 'bds-bench/1.0',
};

const TOOLS = {
  ours: { id: 'ours', label: 'codegen mock' },
  prism: { id: 'prism', label: `Prism ${PRISM_VERSION}` },
};

// --------------------------------------------------------------------------------------------
// Child processes

/** Every server this suite started and has not seen exit: killed at the end whatever happens. */
const live = new Set();

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Clock ticks per second of /proc/<pid>/stat (Linux), or undefined where there is no /proc. */
const clockTicks = (() => {
  if (!existsSync('/proc/self/stat')) return undefined;
  const res = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 5_000 });
  const n = Number(res.stdout?.trim());
  return Number.isFinite(n) && n > 0 ? n : 100;
})();

/** CPU seconds (user + system) a process has used so far, read from /proc; undefined elsewhere. */
function processCpuSeconds(pid) {
  if (clockTicks === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicks;
  } catch {
    return undefined;
  }
}

/**
 * Spawns one mock server (`tool`: ours | prism) for `file` on a free port of 127.0.0.1.
 * Returns at once; `ready()` waits for the first 200.
 */
async function spawnServer(tool, file, { dynamic }) {
  const port = await freePort();
  const args =
    tool === 'ours'
      ? [codegenBin, 'mock', '--spec', file, '--port', String(port), '--host', '127.0.0.1', '--seed', '1', ...(dynamic ? ['--dynamic'] : [])]
      : [prismBin, 'mock', file, '--host', '127.0.0.1', '--port', String(port), ...(dynamic ? ['--dynamic'] : [])];
  const started = performance.now();
  // Prism's scarf dependency reads this to send nothing; our CLI ignores it.
  const child = spawn(process.execPath, args, { cwd: repoRoot, env: { ...process.env, SCARF_ANALYTICS: 'false' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk) => {
    output += chunk;
    if (output.length > 64_000) output = output.slice(-32_000);
  };
  child.stdout.setEncoding('utf8').on('data', keep);
  child.stderr.setEncoding('utf8').on('data', keep);
  let exited;
  const exit = new Promise((resolve) => child.once('exit', (code, signal) => resolve((exited = { code, signal }))));
  const entry = {
    tool,
    dynamic,
    pid: child.pid,
    origin: `http://127.0.0.1:${port}`,
    started,
    output: () => output,
    exited: () => exited,
    cpuSeconds: () => processCpuSeconds(child.pid),
    async stop() {
      if (!exited) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exit;
        clearTimeout(timer);
      }
      live.delete(entry);
    },
  };
  live.add(entry);
  return entry;
}

async function stopAll() {
  await Promise.all([...live].map((s) => s.stop()));
}

async function get(url, headers, timeoutMs = REQUEST_TIMEOUT_MS) {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
  const body = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', headers: Object.fromEntries(res.headers), body };
}

/**
 * Polls `paths` (the list request under the file's server path and at the root) every 20 ms
 * until one answers 200: the start-up time is from spawn to that answer. Also says which base
 * answered.
 */
async function waitReady(server, { prefix, target, headers }) {
  const candidates = [`${prefix}${target}`, target];
  const deadline = server.started + START_TIMEOUT_MS;
  let last = 'no answer';
  while (performance.now() < deadline) {
    if (server.exited()) throw new Error(`${server.tool} exited (${server.exited().code ?? server.exited().signal}) before answering: ${server.output().trim().split('\n').slice(-4).join(' | ')}`);
    for (const p of candidates) {
      try {
        const res = await get(`${server.origin}${p}`, headers, 5_000);
        if (res.status === 200) return { ms: performance.now() - server.started, base: p === target ? '' : prefix };
        last = `${res.status} on ${p}`;
      } catch (error) {
        last = error?.cause?.code ?? error?.message ?? String(error);
      }
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${server.tool} did not answer 200 within ${START_TIMEOUT_MS / 1000} s (last: ${last}); output: ${server.output().trim().split('\n').slice(-4).join(' | ')}`);
}

/** Starts a server and waits for its first 200; kills it when that fails. */
async function startReady(tool, spec, opts) {
  const server = await spawnServer(tool, spec.file, opts);
  try {
    const ready = await waitReady(server, spec.list);
    return { server, ...ready };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** The start-up line `codegen mock` prints: generation, compiling to JavaScript, loading. */
function oursTimings(output) {
  const m = /generated in (\d+) ms \((\d+) of them compiling it to JavaScript\), serving (\d+) ms later \((\d+) ms in all\)/.exec(output);
  return m ? { generate: Number(m[1]) - Number(m[2]), compile: Number(m[2]), load: Number(m[3]), total: Number(m[4]) } : undefined;
}

// --------------------------------------------------------------------------------------------
// Prism, installed on demand

function ensurePrism(ctx) {
  const pkg = path.join(prismDir, 'node_modules', '@stoplight', 'prism-cli', 'package.json');
  return installOnDemand({
    packageSpec: PRISM_PACKAGE,
    dir: prismDir,
    installed: () => existsSync(prismBin) && existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).version === PRISM_VERSION,
    progress: ctx.progress,
    timeout: 240_000,
    env: { ...process.env, SCARF_ANALYTICS: 'false' },
  });
}

// --------------------------------------------------------------------------------------------
// Files, validators, requests

/** Bundles a multi-file contract into one file under bench/.tmp with the repository's Redocly CLI. */
function bundle(file, dir) {
  const out = path.join(dir, `${path.basename(path.dirname(file))}-${path.basename(file)}`);
  const res = spawnSync('npx', ['redocly', 'bundle', path.relative(repoRoot, file), '-o', path.relative(repoRoot, out)], { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 });
  if (res.status !== 0 || !existsSync(out)) throw new Error(`redocly bundle ${display(file)} failed: ${(res.stderr || res.stdout || String(res.error)).trim().slice(0, 500)}`);
  return out;
}

/** Generated + transpiled validators of `file` (the official main file's are shared with the validator suites). */
async function validatorsFor(ctx, file, id) {
  let dir;
  if (id === 'official') dir = officialValidators(ctx)?.validatorsDir;
  if (!dir) {
    const root = scratchDir(`mocks-validators-${id}`);
    ctx.progress(`generate + transpile validators of ${display(file)}`);
    generate(file, root, 'validators');
    transpileDir(path.join(root, 'validators'));
    dir = path.join(root, 'validators');
  }
  return import(pathToFileURL(path.join(dir, 'index.js')).href);
}

/** The keys a zod object schema declares (looking through the generated runtime's wrappers). */
function shapeKeys(schema) {
  const shape = schema?.shape ?? schema?._zod?.def?.shape ?? schema?._zod?.def?.innerType?._zod?.def?.shape;
  return shape ? Object.keys(shape) : [];
}

/**
 * N requests per GET operation, the same for both tools: each made by our mock server's
 * `sampleRequest` (a request the generated validators accept: path and required query
 * parameters, required headers, a credential) with seed i, plus the FAPI headers the
 * operation declares, plus `bench=i` so that the N requests of one operation differ.
 */
async function buildRequests(file, validators, perOperation) {
  const { startMockServer } = await import(pathToFileURL(codegenIndex).href);
  const sampler = await startMockServer({ spec: file, port: 0, onError: () => {} });
  try {
    const out = [];
    for (const op of sampler.operations.filter((o) => o.method === 'GET')) {
      const schemas = validators.operations[op.operationId];
      if (!schemas) throw new Error(`the generated validators have no operation ${op.operationId}`);
      const declared = new Set(shapeKeys(schemas.request.headers).map((k) => k.toLowerCase()));
      const requests = [];
      for (let i = 0; i < perOperation; i++) {
        const sampled = sampler.sampleRequest(op.name, { seed: i + 1 });
        let headers = { accept: 'application/json', ...sampled.headers };
        const withFapi = { ...headers };
        for (const [k, v] of Object.entries(FAPI_HEADERS)) if (declared.has(k) && withFapi[k] === undefined) withFapi[k] = v;
        if (schemas.request.headers.safeParse(withFapi).success) headers = withFapi;
        const sep = sampled.target.includes('?') ? '&' : '?';
        requests.push({ target: `${sampled.target}${sep}${VARY_PARAM}=${i + 1}`, headers });
      }
      out.push({ name: op.name, operationId: op.operationId, path: op.path, requests });
    }
    return out;
  } finally {
    await sampler.close();
  }
}

/** The generated schema for an answer: status exactly, else its range (2XX), else default; media type exactly, else without parameters. */
function responseSchema(validators, operationId, status, contentType) {
  const responses = validators.operations[operationId]?.responses ?? {};
  const response = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
  if (!response) return { error: `status ${status} is not declared` };
  const content = response.content ?? {};
  const keys = Object.keys(content);
  if (keys.length === 0) return { none: true, headers: response.headers };
  const norm = (t) => t.toLowerCase().replace(/\s+/g, '');
  const bare = (t) => norm(t).split(';')[0];
  const key = keys.find((k) => norm(k) === norm(contentType)) ?? keys.find((k) => bare(k) === bare(contentType));
  if (!key) return { error: `content type "${contentType}" is not declared (declared: ${keys.join(', ')})` };
  return { schema: content[key], key, headers: response.headers };
}

/**
 * ajv beside the generated validators, for a file with local $refs only: the component schema
 * of the answer (openapi-ajv.mjs: ajv 8 + ajv-formats full, the closed-allOf reading the
 * generator uses). Compiled once per (operation, status, media type); undefined when the answer's
 * schema is not a component $ref.
 */
function ajvChecker(file) {
  const doc = loadOpenApi(file);
  const cache = new Map();
  return (operationId, status, mediaType) => {
    const key = `${operationId} ${status} ${mediaType}`;
    if (!cache.has(key)) {
      let fn;
      try {
        fn = compileComponent(doc, responseComponent(doc, operationId, String(status), mediaType)).validate;
      } catch {
        fn = undefined;
      }
      cache.set(key, fn);
    }
    return cache.get(key);
  };
}

/** "Data.Account[].Currency: Invalid string: must match pattern …" for the first issue. */
function reasonOf(issues) {
  const issue = issues[0];
  if (!issue) return 'rejected';
  const at = issue.path.map((p) => (typeof p === 'number' ? '[]' : `.${String(p)}`)).join('').replace(/^\./, '').replace(/\.\[\]/g, '[]');
  return `${at || '(body)'}: ${issue.message}`.slice(0, 200);
}

/**
 * Sends every request of `operations` to `server` (under `base`) one at a time and checks each
 * 2xx body with the generated validators.
 */
async function validityPass(server, base, operations, validators, ajv) {
  const tally = { requests: 0, ok2xx: 0, valid: 0, invalid: 0, headersInvalid: 0, bytes: [], ajvChecked: 0, ajvInvalid: 0, ajvDisagree: 0, ajvReasons: new Map(), non2xx: new Map(), errors: 0, reasons: new Map(), bodies: new Set(), perOperation: {} };
  for (const op of operations) {
    const per = { requests: 0, valid: 0, invalid: 0, non2xx: 0 };
    tally.perOperation[op.operationId] = per;
    for (const req of op.requests) {
      tally.requests++;
      per.requests++;
      let res;
      try {
        res = await get(`${server.origin}${base}${req.target}`, req.headers);
      } catch (error) {
        tally.errors++;
        const why = `${op.operationId}: request failed (${error?.cause?.code ?? error?.name ?? 'error'})`;
        tally.reasons.set(why, (tally.reasons.get(why) ?? 0) + 1);
        continue;
      }
      if (res.status < 200 || res.status > 299) {
        per.non2xx++;
        const key = `${res.status}`;
        if (!tally.non2xx.has(key)) tally.non2xx.set(key, { count: 0, example: `${op.operationId}: ${res.body.slice(0, 160)}` });
        tally.non2xx.get(key).count++;
        continue;
      }
      tally.ok2xx++;
      tally.bodies.add(res.body);
      tally.bytes.push(Buffer.byteLength(res.body));
      const found = responseSchema(validators, op.operationId, res.status, res.contentType);
      let problem;
      if (found.error) problem = found.error;
      else if (!found.none) {
        let parsed;
        try {
          parsed = JSON.parse(res.body);
        } catch {
          problem = 'the body is not JSON';
        }
        if (!problem) {
          const result = found.schema.safeParse(parsed);
          if (!result.success) problem = reasonOf(result.error.issues);
          const check = ajv?.(op.operationId, res.status, found.key);
          if (check) {
            tally.ajvChecked++;
            const ajvValid = check(parsed);
            if (!ajvValid) {
              tally.ajvInvalid++;
              const e = check.errors?.[0];
              const why = `${op.operationId}: ${e ? `${e.instancePath || '(body)'} ${e.message}` : 'rejected'}`;
              tally.ajvReasons.set(why, (tally.ajvReasons.get(why) ?? 0) + 1);
            }
            if (ajvValid !== result.success) tally.ajvDisagree++;
          }
        }
      }
      if (found.headers && !found.headers.safeParse(res.headers).success) tally.headersInvalid++;
      if (problem) {
        tally.invalid++;
        per.invalid++;
        const why = `${op.operationId}: ${problem}`;
        tally.reasons.set(why, (tally.reasons.get(why) ?? 0) + 1);
      } else {
        tally.valid++;
        per.valid++;
      }
    }
  }
  return tally;
}

/** The validators of `spec.file`, the requests of every GET operation and the list request. */
async function prepare(ctx, spec, perOperation) {
  spec.validators = await validatorsFor(ctx, spec.file, spec.id);
  spec.prefix = spec.validators.api?.pathPrefix ?? '';
  // ajv as a second opinion where the file has local $refs only (one file).
  // (A multi-file contract is bundled into bench/.tmp for ajv alone; the tools still read the original.)
  if (spec.multiFile && !spec.bundled) {
    try {
      spec.ajvFile = bundle(spec.file, scratchDir('mocks-bundle'));
    } catch (error) {
      spec.ajvFile = undefined;
      ctx.progress(`${spec.label}: no ajv second opinion (${error instanceof Error ? error.message.slice(0, 200) : String(error)})`);
    }
  } else spec.ajvFile = spec.file;
  spec.ajv = spec.ajvFile ? ajvChecker(spec.ajvFile) : undefined;
  spec.operations = await buildRequests(spec.file, spec.validators, perOperation);
  const list = spec.operations.find((o) => o.operationId === 'GetAccounts') ?? spec.operations.find((o) => !o.path.includes('{'));
  if (!list) throw new Error(`${spec.label}: no GET operation without path parameters to use as the list request`);
  const first = list.requests[0];
  spec.list = { operationId: list.operationId, prefix: spec.prefix, target: first.target.replace(new RegExp(`[?&]${VARY_PARAM}=\\d+$`), ''), headers: first.headers };
}

// --------------------------------------------------------------------------------------------
// Load

async function loadRound(url, headers, { connections, duration }) {
  const autocannon = require('autocannon');
  const r = await autocannon({ url, connections, duration, headers });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, total: r.requests.total, non2xx: r.non2xx, errors: r.errors + r.timeouts, bytesPerAnswer: r.requests.total > 0 ? r.throughput.total / r.requests.total : 0 };
}

// --------------------------------------------------------------------------------------------

const ms = (s) => `${Math.round(s)} ms`;

export default {
  id: 'mocks',
  title: `Mock servers: codegen mock beside Prism ${PRISM_VERSION}`,
  description: 'start-up to the first 200, autocannon req/s and p99 of a list request (generated data and static), share of 2xx bodies the generated validators accept for every GET, server path; generation of the mocks target',
  async run(ctx) {
    const quick = ctx.quick;
    const startRunsFor = (spec) => Number(process.env.BENCH_MOCKS_STARTS ?? (quick ? 2 : spec.id === 'official' ? 5 : 3));
    const perOperation = Number(process.env.BENCH_MOCKS_REQUESTS ?? (quick ? 5 : 20));
    const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
    const duration = Number(process.env.BENCH_DURATION ?? (quick ? 2 : 3));
    const warmup = Number(process.env.BENCH_WARMUP ?? 1);
    const rounds = Number(process.env.BENCH_ROUNDS ?? (quick ? 1 : 3));
    const genRuns = quick ? 3 : 7;

    const officialFile = officialSpec(OFFICIAL_MAIN);
    const ownFile = path.join(repoRoot, 'spec/v2.2/account-information.yaml');

    // 1. Generation of the mocks target alone (no servers running yet).
    if (!officialFile) ctx.skip({ id: 'generate-mocks-official', label: `generate --target mocks: official ${OFFICIAL_MAIN}`, reason: 'not found at ../shared/real-specs (rows skipped)' });
    else {
      ctx.progress(`generate --target mocks ${OFFICIAL_MAIN} (1 + ${genRuns})`);
      const times = [];
      const cpu = [];
      const rss = [];
      for (let i = 0; i < 1 + genRuns; i++) {
        const out = osTempDir('mocks-gen');
        try {
          const res = runMeasured({ args: [codegenBin, 'generate', '--spec', officialFile, '--out', out, '--target', 'mocks', '--quiet'], rss: true, timeoutMs: 120_000 });
          if (res.status !== 0) throw new Error(`codegen generate --target mocks exited ${res.status ?? res.signal}: ${(res.stderr || res.stdout).trim().split('\n').slice(-1)[0]}`);
          if (i === 0) continue;
          times.push(res.ms / 1000);
          if (res.cpuMs !== undefined) cpu.push(res.cpuMs / 1000);
          if (res.maxRssKb !== undefined) rss.push(res.maxRssKb / 1024);
        } finally {
          removeDir(out);
        }
      }
      ctx.row({
        id: 'generate-mocks-official',
        label: `generate --target mocks: official ${OFFICIAL_MAIN} (wall)`,
        unit: 's',
        samples: times,
        runs: `${genRuns} + 1 warm-up`,
        how: 'spawn "node packages/codegen/bin/codegen.mjs generate --spec <file> --out <tmp> --target mocks --quiet" (the mocks and the validators they import), spawn to exit, each run into a fresh temporary folder.',
        detail: `CPU time (user+sys) median ${median(cpu).toFixed(3)} s; peak RSS median ${median(rss).toFixed(0)} MB`,
        extra: { cpuSeconds: summarize(cpu), peakRssMb: summarize(rss) },
      });
    }

    // 2. Prism.
    const prism = ensurePrism(ctx);
    const tools = prism.ok ? [TOOLS.ours, TOOLS.prism] : [TOOLS.ours];
    if (prism.ok) ctx.note(`Prism: ${prism.how}; run as "node bench/.tmp/prism/node_modules/@stoplight/prism-cli/dist/index.js mock <file> --host 127.0.0.1 --port <free> [--dynamic]", its defaults otherwise (one process, request validation on, an info log line per request to its standard output, read and dropped by the harness).`);
    else ctx.skip({ id: 'prism', label: `Prism ${PRISM_VERSION}`, reason: `${prism.reason}: every Prism row is left out` });
    ctx.note('codegen mock: "node packages/codegen/bin/codegen.mjs mock --spec <file> --host 127.0.0.1 --port <free> --seed 1 [--dynamic]" (generates the validators, server and mocks into a temporary folder, compiles them to JavaScript, imports them and listens).');

    // 3. Files: the official one in place; ours in place too when Prism follows its multi-file $refs, else both read one bundle.
    const specs = [];
    if (officialFile) specs.push({ id: 'official', label: `official ${OFFICIAL_MAIN}`, file: officialFile });
    else ctx.skip({ id: 'official', label: `official ${OFFICIAL_MAIN}`, reason: 'not found at ../shared/real-specs (rows skipped)' });
    specs.push({ id: 'v2.2', label: 'spec/v2.2/account-information.yaml', file: ownFile, multiFile: true });

    try {
      for (const spec of specs) {
        ctx.progress(`${spec.label}: validators and requests`);
        await prepare(ctx, spec, perOperation);
        spec.fileNote = spec.multiFile ? 'read in place' : 'one file, read in place by both tools';
        if (spec.multiFile && prism.ok) {
          // Does Prism follow the file's $refs into the other files? Start it once on the file in place.
          try {
            const probe = await startReady('prism', spec, { dynamic: true });
            await probe.server.stop();
            spec.fileNote = 'read in place by both tools (Prism follows its $refs into the other files)';
          } catch (error) {
            ctx.progress(`${spec.label}: Prism did not start on the multi-file original; bundling it for both tools`);
            spec.file = bundle(spec.file, scratchDir('mocks-bundle'));
            spec.id = `${spec.id}-bundled`;
            spec.bundled = true;
            await prepare(ctx, spec, perOperation);
            spec.fileNote = `bundled with "npx redocly bundle" into bench/.tmp, and both tools read the bundle (Prism could not start on the multi-file original: ${(error instanceof Error ? error.message : String(error)).slice(0, 160)})`;
          }
        }
      }

      // 4. Start-up: spawn to the first 200 of the list request, the tools alternating run by run.
      ctx.note(
        `Start-up: spawn → the first 200 of GET ${specs[0]?.list.target} (polled every 20 ms under the file's server path and at the root), --dynamic, ${specs.map((sp) => `${startRunsFor(sp)} (${sp.id})`).join(' and ')} timed runs of each tool after 1 warm-up run each (file cache), the tools alternating run by run; median, min–max. The ratio is per pair of runs.`,
      );
      for (const spec of specs) {
        const startRuns = startRunsFor(spec);
        const samples = Object.fromEntries(tools.map((t) => [t.id, []]));
        const phases = [];
        const bases = {};
        for (let i = 0; i < 1 + startRuns; i++) {
          const order = i % 2 === 0 ? tools : [...tools].reverse();
          for (const t of order) {
            ctx.progress(`${spec.label}: start-up ${t.id} ${i === 0 ? 'warm-up' : `${i}/${startRuns}`}`);
            const { server, ms: took, base } = await startReady(t.id, spec, { dynamic: true });
            bases[t.id] = base;
            if (t.id === 'ours' && i > 0) {
              const timings = oursTimings(server.output());
              if (timings) phases.push(timings);
            }
            await server.stop();
            if (i > 0) samples[t.id].push(took / 1000);
          }
        }
        const runs = `${startRuns} + 1 warm-up, tools alternating`;
        for (const t of tools) {
          const detail =
            t.id === 'ours' && phases.length > 0
              ? `its own start-up line (medians): generate ${ms(median(phases.map((p) => p.generate)))}, compile to JavaScript ${ms(median(phases.map((p) => p.compile)))}, import + listen ${ms(median(phases.map((p) => p.load)))}; in all ${ms(median(phases.map((p) => p.total)))} after Node's start`
              : `answered on ${bases[t.id] ? `${bases[t.id]}/…` : 'the root (/…)'}`;
          ctx.row({ id: `startup-${spec.id}-${t.id}`, label: `${t.label}: start-up to the first 200, ${spec.label} (--dynamic)`, unit: 's', samples: samples[t.id], runs, detail });
        }
        if (samples.prism?.length) {
          ctx.row({
            id: `startup-${spec.id}-ratio`,
            label: `start-up, codegen mock ÷ Prism, ${spec.label}`,
            unit: '×',
            samples: samples.ours.map((x, i) => x / samples.prism[i]),
            runs: `${startRuns} pairs`,
          });
        }
      }

      // 5. Validity: every GET operation, N requests each, generated data and static mode.
      ctx.note(
        `Validity: every GET operation of each file, ${perOperation} requests each, the same for both tools: made by codegen's own sampleRequest (path and required query parameters, a bearer credential) with seeds 1…${perOperation}, plus the FAPI headers the operation declares and an undeclared "${VARY_PARAM}=<i>" query parameter so that no two requests are alike; ` +
          'sent one at a time to a fresh server per tool and mode. Each 2xx body is parsed and checked with the generated validators of the same file (codegen generate --target validators into bench/.tmp, transpiled, imported: the schema of the answer\'s status and content type); answer headers are checked too and counted apart. ' +
          `Files: ${specs.map((s) => `${s.label}: ${s.fileNote}`).join('; ')}.`,
      );
      for (const spec of specs) {
        for (const dynamic of [true, false]) {
          const mode = dynamic ? 'dynamic' : 'static';
          for (const t of tools) {
            ctx.progress(`${spec.label}: validity ${t.id} ${mode} (${spec.operations.length} GET operations × ${perOperation})`);
            const { server } = await startReady(t.id, spec, { dynamic });
            let tally;
            let served;
            try {
              // Where does it serve: under the file's server path, at the root, or both?
              const atPrefix = spec.prefix ? (await get(`${server.origin}${spec.prefix}${spec.list.target}`, spec.list.headers)).status : undefined;
              const atRoot = (await get(`${server.origin}${spec.list.target}`, spec.list.headers)).status;
              served = { atPrefix, atRoot };
              const base = atPrefix === 200 || atRoot !== 200 ? spec.prefix : '';
              tally = await validityPass(server, base, spec.operations, spec.validators, spec.ajv);
            } finally {
              await server.stop();
            }
            const non2xx = [...tally.non2xx.entries()].map(([status, v]) => `${v.count}× ${status}`).join(', ');
            const reasons = [...tally.reasons.entries()].sort((a, b) => b[1] - a[1]);
            ctx.row({
              id: `valid-${spec.id}-${mode}-${t.id}`,
              label: `${t.label}: 2xx bodies the generated validators accept, ${spec.label} (${dynamic ? '--dynamic' : 'static'})`,
              unit: '%',
              samples: [tally.ok2xx === 0 ? 0 : (100 * tally.valid) / tally.ok2xx],
              runs: `${spec.operations.length} GET ops × ${perOperation} requests`,
              detail:
                `${tally.invalid} of ${tally.ok2xx} 2xx bodies invalid; ${tally.requests - tally.ok2xx} not 2xx${non2xx ? ` (${non2xx})` : ''}${tally.errors ? `, ${tally.errors} failed` : ''}; ` +
                `${tally.bodies.size} distinct bodies, median ${median(tally.bytes).toFixed(0)} bytes; answer headers refused ${tally.headersInvalid}; ` +
                (tally.ajvChecked ? `ajv refuses ${tally.ajvInvalid} of ${tally.ajvChecked} (disagrees on ${tally.ajvDisagree}); ` : '') +
                `list at ${spec.prefix || '(no prefix)'}/…: ${served.atPrefix ?? '–'}, at /…: ${served.atRoot}`,
              extra: {
                servesUnderPrefix: served.atPrefix === 200,
                servesAtRoot: served.atRoot === 200,
                perOperation: tally.perOperation,
                reasons: reasons.slice(0, 20).map(([why, count]) => ({ count, why })),
                bodyBytes: tally.bytes.length ? summarize(tally.bytes) : undefined,
                ajv: tally.ajvChecked ? { checked: tally.ajvChecked, invalid: tally.ajvInvalid, disagree: tally.ajvDisagree, reasons: [...tally.ajvReasons.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([why, count]) => ({ count, why })) } : undefined,
                non2xx: Object.fromEntries(tally.non2xx),
              },
            });
            if (reasons.length > 0) {
              ctx.note(`${t.label}, ${spec.label}, ${mode}: ${reasons.length} distinct reasons for ${tally.invalid} invalid bodies; the most frequent: ${reasons.slice(0, 3).map(([why, n]) => `${n}× ${why}`).join('; ')}`);
            }
            if (tally.ajvDisagree > 0) ctx.note(`${t.label}, ${spec.label}, ${mode}: ajv and the generated validators disagree on ${tally.ajvDisagree} bodies; ajv's reasons: ${[...tally.ajvReasons.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([why, n]) => `${n}× ${why}`).join('; ')}`);
            if (tally.non2xx.size > 0) ctx.note(`${t.label}, ${spec.label}, ${mode}: answers not 2xx, e.g. ${[...tally.non2xx.entries()].slice(0, 2).map(([s, v]) => `${s} ${v.example}`).join('; ')}`);
          }
        }
      }

      // 6. Throughput and latency of the list request, fresh processes every round, the order rotating.
      const loadSpec = specs[0];
      const setups = [];
      for (const dynamic of [true, false]) for (const t of tools) setups.push({ tool: t, dynamic, rps: [], p99: [], p50: [], cpu: [], bytes: [], non2xx: 0, errors: 0 });
      for (let round = 0; round < rounds; round++) {
        const running = [];
        try {
          for (const s of setups) {
            ctx.progress(`load round ${round + 1}/${rounds}: start ${s.tool.id} ${s.dynamic ? 'dynamic' : 'static'}`);
            const { server, base } = await startReady(s.tool.id, loadSpec, { dynamic: s.dynamic });
            running.push({ s, server, url: `${server.origin}${base}${loadSpec.list.target}` });
          }
          for (const { s, url } of running) if (warmup > 0) await loadRound(url, loadSpec.list.headers, { connections, duration: warmup });
          for (let k = 0; k < running.length; k++) {
            const { s, server, url } = running[(round + k) % running.length];
            ctx.progress(`load round ${round + 1}/${rounds}: ${s.tool.id} ${s.dynamic ? 'dynamic' : 'static'} (${duration} s)`);
            const before = server.cpuSeconds();
            const r = await loadRound(url, loadSpec.list.headers, { connections, duration });
            const after = server.cpuSeconds();
            s.rps.push(r.rps);
            s.p99.push(r.p99);
            s.p50.push(r.p50);
            s.bytes.push(r.bytesPerAnswer);
            s.non2xx += r.non2xx;
            s.errors += r.errors;
            if (before !== undefined && after !== undefined && r.total > 0) s.cpu.push(((after - before) * 1e6) / r.total);
          }
        } finally {
          for (const r of running) await r.server.stop();
        }
      }
      const loadRuns = `${rounds} rounds × ${duration} s, ${warmup} s warm-up`;
      ctx.note(
        `Load: GET ${loadSpec.list.operationId} (${loadSpec.list.target}) of ${loadSpec.label}, with ${Object.keys(loadSpec.list.headers).join(', ')}; each tool at the base where it answers (codegen mock under ${loadSpec.prefix}, Prism at the root). ` +
          `autocannon in the harness process, ${connections} connections, 127.0.0.1; ${rounds} rounds, each with fresh server processes (${setups.length}: both tools with --dynamic and in static mode), each warmed up for ${warmup} s, then measured in turn for ${duration} s, the order rotating every round. ` +
          'req/s: median over rounds; p99: median of the rounds\' p99; server CPU/request: the server process\'s user + system time (/proc) over the round divided by the requests answered; bytes/answer: autocannon\'s bytes read (headers included) ÷ answers. Ratios are taken round by round, then the median.',
      );
      for (const s of setups) {
        const mode = s.dynamic ? 'dynamic' : 'static';
        const label = `${s.tool.label} (${s.dynamic ? '--dynamic' : 'static'}): GET ${loadSpec.list.operationId}`;
        ctx.row({
          id: `rps-${mode}-${s.tool.id}`,
          label: `${label}, requests/s`,
          unit: 'req/s',
          samples: s.rps,
          runs: loadRuns,
          detail: `${s.cpu.length ? `server CPU/request ${median(s.cpu).toFixed(0)} µs; ` : ''}p50 ${median(s.p50).toFixed(1)} ms; ~${Math.round(median(s.bytes))} bytes/answer; non-2xx ${s.non2xx}, errors ${s.errors}`,
          extra: { cpuMicrosPerRequest: s.cpu.length ? summarize(s.cpu) : undefined, bytesPerAnswer: summarize(s.bytes), non2xx: s.non2xx, errors: s.errors },
        });
        ctx.row({ id: `p99-${mode}-${s.tool.id}`, label: `${label}, p99 latency`, unit: 'ms', samples: s.p99, runs: loadRuns });
      }
      for (const dynamic of [true, false]) {
        const mode = dynamic ? 'dynamic' : 'static';
        const a = setups.find((s) => s.tool.id === 'ours' && s.dynamic === dynamic);
        const b = setups.find((s) => s.tool.id === 'prism' && s.dynamic === dynamic);
        if (!a || !b) continue;
        ctx.row({
          id: `rps-${mode}-ratio`,
          label: `codegen mock ÷ Prism, requests/s (${dynamic ? '--dynamic' : 'static'})`,
          unit: '×',
          samples: a.rps.map((x, i) => x / b.rps[i]),
          runs: `${rounds} rounds`,
          detail: `${a.cpu.length && b.cpu.length ? `by server CPU/request ${(median(b.cpu) / median(a.cpu)).toFixed(1)}×; ` : ''}p99 ${median(a.p99).toFixed(1)} vs ${median(b.p99).toFixed(1)} ms`,
        });
      }

    } finally {
      await stopAll();
    }
  },
};
