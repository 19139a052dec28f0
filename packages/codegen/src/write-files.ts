/**
 * Writing generated files into a folder that people also use.
 *
 * The rule: the generator removes or overwrites only files it wrote itself, which it knows by
 * their first line (the header every generated file starts with). Any other file in the
 * folders it writes (`validators/`, `server/`, `client/` under `--out`, or a package's
 * `src/generated/`) makes it refuse the whole run, naming the files, before it writes
 * anything; `keepOthers` lets it write beside them, leaving them exactly as they are. A file
 * of someone else's that sits where a generated file must go is never overwritten.
 */
import { lstat, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { GeneratedFile } from './emit/types.js';
import { GENERATED_MARKER } from './emit/shared/header.js';

export interface WriteReport {
  /** Files written (or, with `check`, that would be written), relative to the folder. */
  written: string[];
  unchanged: string[];
  /** Generated files no longer produced, removed (or, with `check`, that would be). */
  removed: string[];
  /** Files the generator did not write, left as they are (only with `keepOthers`). */
  kept: string[];
  /** With `check`: the current and expected text of the first file that differs. */
  firstDifference?: { file: string; current: string; expected: string };
}

export interface WriteOptions {
  /** Write nothing; report what would change. */
  check: boolean;
  /** The generator owns the whole folder (a package's `src/generated/`). */
  ownAll?: boolean;
  /** Write the files and look at nothing else in the folder. */
  ownNone?: boolean;
  /** Write beside files the generator did not write instead of refusing; they are kept. */
  keepOthers?: boolean;
  /** Replace whatever is at the paths of `files` (a file the user named as the output). */
  replaceNamed?: boolean;
}

/** True when `text` is a file the generator wrote: its first line is a generated header. */
export function writtenByGenerator(text: string): boolean {
  const firstLine = text.slice(0, text.indexOf('\n') === -1 ? undefined : text.indexOf('\n'));
  return (firstLine.startsWith('// ') || firstLine.startsWith('<!-- ')) && firstLine.slice(firstLine.indexOf(' ') + 1).startsWith(GENERATED_MARKER);
}

/** Thrown before anything is written, when the folder holds files the generator did not write. */
export class ForeignFilesError extends Error {
  constructor(
    readonly outDir: string,
    /** Files in the generator's folders it did not write (relative to `outDir`). */
    readonly others: string[],
    /** Of those, the ones at a path a generated file must take. */
    readonly inTheWay: string[],
  ) {
    const shown = (files: string[]) => files.map((f) => `  ${path.join(outDir, f)}`).join('\n');
    const lines: string[] = [];
    if (inTheWay.length > 0) {
      lines.push(`${outDir}: ${inTheWay.length} file(s) the generator did not write are where generated files must go (they do not start with its header):`, shown(inTheWay));
    }
    const beside = others.filter((f) => !inTheWay.includes(f));
    if (beside.length > 0) {
      lines.push(`${outDir}: ${beside.length} file(s) the generator did not write are in the folders it writes:`, shown(beside));
    }
    lines.push(
      inTheWay.length > 0
        ? 'Nothing was written. Move those files elsewhere (or choose another output folder); the generator never overwrites them.'
        : 'Nothing was written. Move them elsewhere, choose another output folder, or pass --keep-other-files to write beside them (they are never removed).',
    );
    super(lines.join('\n'));
    this.name = 'ForeignFilesError';
  }
}

async function readIfFile(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Every file under `dir` (relative, with `/`), symbolic links included and never followed. */
async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(path.join(dir, prefix), { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(dir, relative)));
    else out.push(relative);
  }
  return out;
}

async function isGeneratedFile(file: string): Promise<boolean> {
  const stats = await lstat(file).catch(() => undefined);
  if (!stats?.isFile()) return false;
  return writtenByGenerator((await readIfFile(file)) ?? '');
}

/** What one folder's write will do, decided before anything is written. */
export interface WritePlan {
  outDir: string;
  report: WriteReport;
  toWrite: GeneratedFile[];
  toRemove: string[];
}

/**
 * Decides what writing `files` under `outDir` does: files whose bytes change are written,
 * generated files that are no longer produced are removed from the folders the generator owns
 * (so a removed schema does not linger). Reads only; throws `ForeignFilesError` when those
 * folders hold other files (see the top of this file).
 */
export async function planWrite(outDir: string, files: GeneratedFile[], options: WriteOptions): Promise<WritePlan> {
  const report: WriteReport = { written: [], unchanged: [], removed: [], kept: [] };
  const owned = options.ownNone ? [] : options.ownAll ? [''] : [...new Set(files.map((f) => f.path.split('/')[0]!))].sort();
  const expected = new Set(files.map((f) => f.path));
  const others: string[] = [];
  const inTheWay: string[] = [];

  const toWrite: GeneratedFile[] = [];
  for (const file of files) {
    const target = path.join(outDir, file.path);
    const stats = await lstat(target).catch(() => undefined);
    const current = stats?.isFile() ? await readIfFile(target) : undefined;
    if (current === file.contents) {
      report.unchanged.push(file.path);
      continue;
    }
    if (stats && !options.replaceNamed && (current === undefined || !writtenByGenerator(current))) {
      inTheWay.push(file.path);
      continue;
    }
    if (options.check && report.firstDifference === undefined) {
      report.firstDifference = { file: file.path, current: current ?? '', expected: file.contents };
    }
    report.written.push(file.path);
    toWrite.push(file);
  }
  const toRemove: string[] = [];
  for (const folder of owned) {
    for (const relative of await listFiles(outDir, folder)) {
      if (expected.has(relative)) continue;
      if (await isGeneratedFile(path.join(outDir, relative))) toRemove.push(relative);
      else others.push(relative);
    }
  }
  if (inTheWay.length > 0 || (others.length > 0 && !options.keepOthers)) {
    throw new ForeignFilesError(outDir, [...inTheWay, ...others].sort(), inTheWay);
  }
  report.kept.push(...others);
  report.removed.push(...toRemove);
  return { outDir, report, toWrite, toRemove };
}

/** Carries out a plan of `planWrite`. */
export async function applyWrite(plan: WritePlan): Promise<void> {
  for (const file of plan.toWrite) {
    const target = path.join(plan.outDir, file.path);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.contents);
  }
  for (const relative of plan.toRemove) await rm(path.join(plan.outDir, relative));
}

/**
 * Plans and (unless `check`) carries out the write of `files` under `outDir`; refuses, having
 * written nothing, when the folders it writes hold files the generator did not write.
 */
export async function writeFiles(outDir: string, files: GeneratedFile[], options: WriteOptions): Promise<WriteReport> {
  const plan = await planWrite(outDir, files, options);
  if (!options.check) await applyWrite(plan);
  return plan.report;
}
