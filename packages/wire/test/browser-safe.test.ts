/**
 * The package runs in browsers (mock handlers) as well as on Node: its sources import no
 * Node module and use no Node global, and zod only as types (the caller's validators bring
 * the schemas). The build checks the types (no Node types in tsconfig.build.json); this checks
 * what a type-only check cannot see.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');
const sources = readdirSync(SRC)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => ({ file, text: readFileSync(path.join(SRC, file), 'utf8') }));

describe('browser-safe sources', () => {
  it('import only each other, and zod as types', () => {
    for (const { file, text } of sources) {
      for (const [statement, specifier] of text.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)';/gms)) {
        if (specifier!.startsWith('./')) continue;
        expect(`${file}: ${statement}`).toMatch(/^[^:]+: import type \{ z \} from 'zod';$/);
      }
    }
  });

  it('use no Node global', () => {
    for (const { file, text } of sources) {
      const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      expect(code, file).not.toMatch(/\b(Buffer|process|require|__dirname|__filename|global|setImmediate)\b/);
    }
  });
});
