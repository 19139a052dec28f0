import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { generate, type Target } from '../generate.js';
import { applyWrite, planWrite, type WritePlan, type WriteReport } from '../write-files.js';
import type { Diagnostic } from '../ir/types.js';
import type { GeneratedFile } from '../emit/types.js';
import { buildChangelog } from './changelog.js';

/**
 * `codegen.config.json`: which spec files become which subpath of which package.
 * `{version}` in a subpath is the folder the `*` of `files` matched, so a new version
 * folder in spec/ becomes a new subpath with no other change.
 */
export interface WorkspaceConfig {
  /** Package folder per target, relative to the config file. */
  packages: Partial<Record<Target, string>>;
  apis: Array<{ files: string; subpath: string }>;
  /** Where the generated changelog of versioned APIs goes, relative to the config file. */
  changelog?: string;
}

export interface WorkspaceApi {
  spec: string;
  subpath: string;
  version: string | undefined;
}

/** Folder inside each package that the generator owns entirely. */
export const GENERATED_DIR = 'src/generated';

export async function readWorkspaceConfig(file: string): Promise<WorkspaceConfig> {
  const raw = JSON.parse(await readFile(file, 'utf8')) as WorkspaceConfig;
  if (!raw || typeof raw !== 'object' || !Array.isArray(raw.apis) || typeof raw.packages !== 'object') {
    throw new Error(`${file}: expected { "packages": {...}, "apis": [...] }`);
  }
  return raw;
}

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

/** Expands a pattern with at most one `*` segment (a folder name) into files that exist. */
export async function expandPattern(root: string, pattern: string): Promise<Array<{ file: string; match: string | undefined }>> {
  const segments = pattern.split('/');
  const star = segments.indexOf('*');
  if (star === -1) return (await exists(path.join(root, pattern))) ? [{ file: pattern, match: undefined }] : [];
  const parent = segments.slice(0, star).join('/');
  const rest = segments.slice(star + 1).join('/');
  let entries: string[];
  try {
    entries = (await readdir(path.join(root, parent))).sort();
  } catch {
    return [];
  }
  const out: Array<{ file: string; match: string }> = [];
  for (const entry of entries) {
    if (!(await isDirectory(path.join(root, parent, entry)))) continue;
    const file = [parent, entry, rest].filter(Boolean).join('/');
    if (await exists(path.join(root, file))) out.push({ file, match: entry });
  }
  return out;
}

export async function listWorkspaceApis(root: string, config: WorkspaceConfig): Promise<WorkspaceApi[]> {
  const apis: WorkspaceApi[] = [];
  for (const entry of config.apis) {
    for (const { file, match } of await expandPattern(root, entry.files)) {
      apis.push({ spec: file, subpath: entry.subpath.replace('{version}', match ?? ''), version: match });
    }
  }
  return apis;
}

export interface WorkspaceReport {
  apis: WorkspaceApi[];
  /** Per package folder. */
  packages: Array<{ target: Target | 'changelog'; dir: string; report: WriteReport }>;
  diagnostics: Array<Diagnostic & { spec: string }>;
}

/**
 * Regenerates every package from the spec files the config lists. Each API lands in
 * `<package>/src/generated/<subpath>/`; the packages export `./*` from there.
 */
export async function runWorkspace(options: {
  root: string;
  config: WorkspaceConfig;
  check: boolean;
  /** Targets to regenerate; `changelog` is the generated changelog. Default: everything. */
  only?: Array<Target | 'changelog'>;
  /** Write beside files in the generated folders that the generator did not write (kept). */
  keepOthers?: boolean;
  onProgress?: (message: string) => void;
}): Promise<WorkspaceReport> {
  const { root, config } = options;
  const apis = await listWorkspaceApis(root, config);
  const targets = (Object.keys(config.packages) as Target[]).filter((t) => !options.only || options.only.includes(t));
  const withChangelog = config.changelog !== undefined && (!options.only || options.only.includes('changelog'));
  const filesByTarget = new Map<Target, GeneratedFile[]>(targets.map((t) => [t, []]));
  const diagnostics: WorkspaceReport['diagnostics'] = [];
  for (const api of targets.length > 0 ? apis : []) {
    options.onProgress?.(`generating ${api.spec} → ${api.subpath}`);
    const result = await generate({
      spec: path.join(root, api.spec),
      source: api.spec,
      targets,
      emit: { validatorsImport: `@bank-data-sharing/validators/${api.subpath}` },
    });
    diagnostics.push(...result.diagnostics.map((d) => ({ ...d, spec: api.spec })));
    for (const file of result.files) {
      const [target, ...rest] = file.path.split('/');
      const bucket = filesByTarget.get(target as Target);
      if (bucket) bucket.push({ path: [api.subpath, ...rest].join('/'), contents: file.contents });
    }
  }
  if (diagnostics.some((d) => d.severity === 'error')) return { apis, packages: [], diagnostics };
  // Every folder is planned before any is written: a refusal in one leaves all untouched.
  const plans: Array<{ target: Target | 'changelog'; dir: string; plan: WritePlan }> = [];
  if (config.changelog && withChangelog) {
    options.onProgress?.('writing the changelog');
    const contents = await buildChangelog(root, config);
    // The config names this file as the changelog: it is replaced whatever it holds.
    plans.push({ target: 'changelog', dir: '.', plan: await planWrite(root, [{ path: config.changelog, contents }], { check: options.check, ownNone: true, replaceNamed: true }) });
  }
  for (const target of targets) {
    const dir = path.join(root, config.packages[target]!, GENERATED_DIR);
    const plan = await planWrite(dir, filesByTarget.get(target)!, { check: options.check, ownAll: true, ...(options.keepOthers ? { keepOthers: true } : {}) });
    plans.push({ target, dir: path.relative(root, dir), plan });
  }
  if (!options.check) for (const { plan } of plans) await applyWrite(plan);
  const packages: WorkspaceReport['packages'] = plans.map(({ target, dir, plan }) => ({ target, dir, report: plan.report }));
  return { apis, packages, diagnostics };
}
