/**
 * `scaffold.json`: what a scaffold folder was made from. It is how a later run knows the
 * folder is a scaffold, which version its imports name, which spec to diff against, and
 * which files the scaffold created (imports move only in those).
 */
import type { GroupBy } from './plan.js';

export const MANIFEST_FILE = 'scaffold.json';

export interface Manifest {
  /** The spec file, relative to the folder, forward slashes. */
  spec: string;
  title: string;
  version: string;
  /** Module specifier of the generated server stubs the handlers are typed from. */
  server: string;
  groupBy: GroupBy;
  /** Files the scaffold created, sorted. */
  files: string[];
}

const NOTE = 'Written by codegen scaffold: what this folder was scaffolded from. Do not edit.';

export function printManifest(manifest: Manifest): string {
  const ordered = {
    '//': NOTE,
    spec: manifest.spec,
    title: manifest.title,
    version: manifest.version,
    server: manifest.server,
    groupBy: manifest.groupBy,
    files: [...manifest.files].sort(),
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

/** Parses `scaffold.json`; a message naming the field when it is not one this version wrote. */
export function parseManifest(text: string): Manifest | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `not valid JSON (${(error as Error).message})`;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  const v = value as Record<string, unknown>;
  for (const key of ['spec', 'title', 'version', 'server'] as const) {
    if (typeof v[key] !== 'string' || v[key] === '') return `"${key}" must be a non-empty string`;
  }
  if (v.groupBy !== 'tag' && v.groupBy !== 'path') return '"groupBy" must be "tag" or "path"';
  if (!Array.isArray(v.files) || !v.files.every((f) => typeof f === 'string')) return '"files" must be a list of file names';
  return {
    spec: v.spec as string,
    title: v.title as string,
    version: v.version as string,
    server: v.server as string,
    groupBy: v.groupBy,
    files: v.files as string[],
  };
}
