import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { WorkspaceConfig } from './workspace.js';

/**
 * The folders to watch: the top folder of each pattern in the config (e.g. `spec`), watched
 * recursively, because a spec's `$ref`s reach beyond its own folder (`spec/common/`).
 */
export function watchedFolders(root: string, config: WorkspaceConfig): string[] {
  return [...new Set(config.apis.map((entry) => path.join(root, entry.files.split('/')[0]!)))].sort();
}

/**
 * Runs `regenerate` once, then again after each burst of saves (debounced, never two runs at
 * once), until the process is interrupted.
 */
export async function watchSpecs(root: string, config: WorkspaceConfig, regenerate: () => Promise<number>): Promise<number> {
  const folders = watchedFolders(root, config);
  await regenerate();
  process.stdout.write(`watching ${folders.map((f) => path.relative(process.cwd(), f) || '.').join(', ')} for changes (Ctrl-C to stop)\n`);
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let pending = false;
  const trigger = () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      if (running) {
        pending = true;
        return;
      }
      running = true;
      do {
        pending = false;
        process.stdout.write(`change detected, regenerating at ${new Date().toLocaleTimeString()}\n`);
        await regenerate().catch((error: Error) => process.stderr.write(`regeneration failed: ${error.message}\n`));
      } while (pending);
      running = false;
    }, 150);
  };
  const watchers: FSWatcher[] = folders.map((folder) =>
    watch(folder, { recursive: true }, (_event, file) => {
      // Bundled copies and editor swap files are not sources.
      if (file && (/(^|[\\/])(dist|node_modules)[\\/]/.test(file) || /(~|\.swp)$/.test(file) || file.endsWith('CHANGELOG.md'))) return;
      trigger();
    }),
  );
  return new Promise<number>((resolve) => {
    process.once('SIGINT', () => {
      for (const w of watchers) w.close();
      clearTimeout(timer);
      resolve(0);
    });
  });
}
