import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Each run starts from an empty scratch folder, so old generated files cannot mask a bug. */
export default async function setup(): Promise<void> {
  const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../.test-output');
  await rm(dir, { recursive: true, force: true });
}
