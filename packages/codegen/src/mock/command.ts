/**
 * The `codegen mock` command once its arguments are read: start the server, say where it
 * is and how to call it, serve until Ctrl-C or SIGTERM, then close cleanly. Loaded by the
 * CLI only when the command runs.
 */
import { SpecLoadError } from '../load/parse-document.js';
import { MockLoadError, MockSpecError } from './load-api.js';
import { startMockServer, type MockServer, type MockServerOptions } from './server.js';
import { TOTAL_PAGES } from './paging.js';

/** The signals that stop the server: Ctrl-C, a process manager, a closed terminal. */
const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

function formatDiagnostic(d: { severity: string; code: string; pointer: string; message: string }): string {
  return `${d.severity} [${d.code}] ${d.pointer}: ${d.message}\n`;
}

/** What the server says when it is up: where, how to call it, how long it took. */
function startupText(server: MockServer, options: MockServerOptions, elapsed: number): string {
  const curl = server.curlExample();
  const { generate, write, load, listen } = server.timings;
  return [
    `Mock server of ${server.api.title} (${server.api.version}): ${server.operations.length} operation(s), seed ${options.seed ?? 1}` +
      `${options.dynamic ? ', generated data' : ", the spec's examples where they validate"}${options.delay ? `, ${options.delay} ms delay` : ''}`,
    `  ${server.url}`,
    ...(curl ? [`  try: ${curl}`] : []),
    `  generated in ${Math.round(generate + write)} ms (${Math.round(write)} of them compiling it to JavaScript), serving ${Math.round(load + listen)} ms later (${Math.round(elapsed)} ms in all)`,
    ...(server.signedOnly.length > 0 ? [`  answered 406 (they answer only application/jwt, and the mock signs nothing): ${server.signedOnly.join(', ')}`] : []),
    `  Prefer: code=<status>, example=<name>, dynamic=true|false choose the answer; paged lists have ${TOTAL_PAGES} pages`,
    '  Ctrl-C to stop',
    '',
  ].join('\n');
}

/**
 * Serves `options.spec` until the process is told to stop; the exit code (0, or 1 when the
 * file cannot be served or the port cannot be had).
 */
export async function serveMockCommand(options: MockServerOptions): Promise<number> {
  const started = performance.now();
  // Listening from the start: a signal's default action ends the process without its 'exit'
  // event, which is what removes the generated folder.
  let server: MockServer | undefined;
  let resolveStop: (signal: NodeJS.Signals) => void = () => {};
  const stopped = new Promise<NodeJS.Signals>((resolve) => (resolveStop = resolve));
  const stop = (signal: NodeJS.Signals) => {
    unlisten();
    // Still starting: exit now; the 'exit' event removes whatever was generated.
    if (!server) process.exit(130);
    resolveStop(signal);
  };
  const unlisten = () => {
    for (const signal of SIGNALS) process.removeListener(signal, stop);
  };
  for (const signal of SIGNALS) process.on(signal, stop);
  try {
    server = await startMockServer(options);
  } catch (error) {
    unlisten();
    if (error instanceof MockSpecError) {
      for (const d of error.diagnostics) if (d.severity !== 'info') process.stderr.write(formatDiagnostic(d));
      process.stderr.write(`codegen mock: ${error.message}\n`);
      return 1;
    }
    if (error instanceof SpecLoadError || error instanceof MockLoadError) {
      process.stderr.write(`codegen mock: ${error.message}\n`);
      return 1;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      process.stderr.write(`codegen mock: cannot listen on ${options.host ?? '127.0.0.1'}:${options.port ?? 4010} (${code}); choose another --port or --host\n`);
      return 1;
    }
    throw error;
  }
  for (const d of server.diagnostics) if (d.severity === 'warning') process.stderr.write(formatDiagnostic(d));
  process.stdout.write(startupText(server, options, performance.now() - started));
  const signal = await stopped;
  await server.close();
  process.stdout.write(`\nmock server stopped (${signal})\n`);
  return 0;
}
