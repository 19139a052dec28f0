/**
 * Where the workspace config is when `--config` does not say: the nearest
 * `codegen.config.json` at or above a folder, so version names (`v2.2`, `v2.2/lfi`) work from
 * any folder of the repository, not only from its root.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

export const CONFIG_FILE = 'codegen.config.json';

/** `dir`, its parent, ... up to the root of the file system. */
function upwards(dir: string): string[] {
  const out: string[] = [];
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    out.push(at);
    if (path.dirname(at) === at) return out;
  }
}

/** The nearest `codegen.config.json` at or above each folder, each found once, in the order given. */
export function configCandidates(dirs: string[]): string[] {
  const found: string[] = [];
  for (const dir of dirs) {
    const file = upwards(dir)
      .map((d) => path.join(d, CONFIG_FILE))
      .find((f) => existsSync(f));
    if (file && !found.includes(file)) found.push(file);
  }
  return found;
}

/** `--config` as given, else the nearest config above the current folder, else `codegen.config.json` here (which may not exist). */
export function defaultConfigFile(given: string | undefined): string {
  if (given !== undefined) return path.resolve(given);
  return configCandidates([process.cwd()])[0] ?? path.resolve(CONFIG_FILE);
}
