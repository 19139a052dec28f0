import { existsSync } from 'node:fs';
import path from 'node:path';
import { watch as watchFiles } from 'chokidar';
import type { Target } from '../generate.js';
import { runWorkspace, type WorkspaceConfig } from './workspace.js';

/**
 * The folders to watch: the top folder of each pattern in the config (e.g. `spec`), watched
 * recursively, because a spec's `$ref`s reach beyond its own folder (`spec/common/`).
 */
export function watchedFolders(root: string, config: WorkspaceConfig): string[] {
  return [...new Set(config.apis.map((entry) => path.join(root, entry.files.split('/')[0]!)))].sort();
}

/** One regeneration, told in one line. */
export interface WatchRunResult {
  ok: boolean;
  line: string;
}

/**
 * Regenerates the workspace once and says how it went in one line: the counts, or the first
 * problem (with its file and line when the loader knows them) and how many there were.
 */
export async function regenerateOnce(options: { root: string; config: WorkspaceConfig; only?: Array<Target | 'changelog'>; keepOthers?: boolean }): Promise<WatchRunResult> {
  const started = performance.now();
  try {
    const report = await runWorkspace({ ...options, check: false });
    const errors = report.diagnostics.filter((d) => d.severity === 'error');
    if (errors.length > 0) {
      const first = errors[0]!;
      const more = errors.length > 1 ? ` (and ${errors.length - 1} more error(s))` : '';
      return { ok: false, line: `failed: ${first.spec}: [${first.code}] ${first.pointer}: ${first.message}${more}; nothing written` };
    }
    const count = (key: 'written' | 'unchanged' | 'removed') => report.packages.reduce((n, p) => n + p.report[key].length, 0);
    const ms = Math.round(performance.now() - started);
    return { ok: true, line: `ok: ${report.apis.length} API(s); ${count('written')} written, ${count('unchanged')} unchanged, ${count('removed')} removed (${ms} ms)` };
  } catch (error) {
    // The loader's and the writer's errors are the user's to fix; one line, then keep watching.
    const message = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ');
    return { ok: false, line: `failed: ${message}` };
  }
}

function clock(): string {
  return new Date().toISOString().slice(11, 19);
}

/** Files that are never sources of a spec: installs, bundles, editor droppings, our own output. */
function ignoredPath(root: string, config: WorkspaceConfig): (file: string) => boolean {
  const changelog = config.changelog ? path.join(root, config.changelog) : undefined;
  return (file) =>
    /(^|[\\/])(node_modules|dist|\.git)([\\/]|$)/.test(file) || /(~|\.swp|\.swx|\.tmp|4913)$/.test(file) || (changelog !== undefined && path.resolve(file) === changelog);
}

/**
 * The changed files in the order a run line names them: spec files that still exist first, so
 * that an editor's or `sed -i`'s temporary file, gone by the time the run starts, is not the
 * one the line names.
 */
function namedFirst(files: string[]): string[] {
  const rank = (file: string) => (existsSync(file) ? 0 : 2) + (/\.(ya?ml|json)$/i.test(file) ? 0 : 1);
  return files.map((file, index) => ({ file, index, rank: rank(file) })).sort((a, b) => a.rank - b.rank || a.index - b.index).map((f) => f.file);
}

/**
 * Runs `regenerate` once, then again after each burst of changes under the watched folders
 * (debounced; never two runs at once; a change during a run triggers one more run), printing
 * one line per run, until SIGINT or SIGTERM. A failed run changes nothing and the watch goes
 * on: the next save that fixes the spec regenerates.
 *
 * chokidar rather than `fs.watch`: Node's recursive `fs.watch` on Linux loses a file once an
 * editor or `sed -i` replaces it by a rename, or `git checkout` rewrites it.
 */
export async function watchSpecs(options: {
  root: string;
  config: WorkspaceConfig;
  regenerate: () => Promise<WatchRunResult>;
  write?: (line: string) => void;
  debounceMs?: number;
}): Promise<number> {
  const { root, config } = options;
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const folders = watchedFolders(root, config);
  const shown = (file: string) => path.relative(process.cwd(), file).split(path.sep).join('/') || '.';

  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let changed: string[] = [];
  const runNow = async (reason: string) => {
    running = true;
    const result = await options.regenerate();
    write(`[${clock()}] ${reason}: ${result.line}`);
    running = false;
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void flush(), options.debounceMs ?? 150);
  };
  const flush = async () => {
    if (running || changed.length === 0) return;
    const files = namedFirst([...new Set(changed)]);
    changed = [];
    const reason = `${shown(files[0]!)}${files.length > 1 ? ` and ${files.length - 1} more` : ''} changed`;
    await runNow(reason);
    // Changes seen during the run: one more run for all of them.
    if (changed.length > 0) schedule();
  };

  await runNow('start');
  const watcher = watchFiles(folders, { ignoreInitial: true, ignored: ignoredPath(root, config), atomic: true });
  watcher.on('all', (_event, file) => {
    changed.push(file);
    schedule();
  });
  watcher.on('error', (error) => write(`[${clock()}] watch error: ${error instanceof Error ? error.message : String(error)}`));
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  write(`watching ${folders.map(shown).join(', ')} for changes (Ctrl-C to stop)`);

  return new Promise<number>((resolve) => {
    const stop = () => {
      clearTimeout(timer);
      void watcher.close().then(() => resolve(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
