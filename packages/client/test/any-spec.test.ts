/**
 * The client emitter must work for any OpenAPI file: generate validators and client for the
 * project's spec and for the published files in ../shared/real-specs, and type-check them
 * strictly against this runtime. (`codegen verify` does the same once it can resolve
 * `@bank-data-sharing/client/runtime`; here the package resolves its own name.)
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate, generatedCodeCompilerOptions, writeFiles } from '@bank-data-sharing/codegen';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(packageRoot, '../..');
const realSpecs = path.resolve(repoRoot, '../shared/real-specs');
// Inside the package, so `@bank-data-sharing/client/runtime` and zod resolve as for any user.
const scratch = path.join(packageRoot, '.test-output', 'any-spec');

const specs = [path.join(repoRoot, 'spec/v2.2/account-information.yaml'), path.join(repoRoot, 'spec/directory/directory.yaml')];
if (existsSync(realSpecs)) {
  for (const name of readdirSync(realSpecs).sort()) if (/\.ya?ml$/.test(name)) specs.push(path.join(realSpecs, name));
} else {
  console.log(`any-spec.test.ts: ${realSpecs} is absent; checking the project's own specs only`);
}

function typeCheck(files: string[]): string[] {
  const program = ts.createProgram(files, {
    ...generatedCodeCompilerOptions(ts),
    // The runtime's sources, so the check does not depend on a build.
    paths: { '@bank-data-sharing/client/runtime': [path.join(packageRoot, 'src/runtime/index.ts')] },
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${path.relative(scratch, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : '';
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

describe('generated clients type-check for any spec', () => {
  for (const spec of specs) {
    const label = spec.startsWith(realSpecs) ? `real-specs/${path.basename(spec)}` : path.relative(repoRoot, spec);
    it(label, { timeout: 240_000 }, async () => {
      const out = path.join(scratch, label.replace(/\.ya?ml$/, '').replace(/[\\/]/g, '__'));
      await rm(out, { recursive: true, force: true });
      await mkdir(out, { recursive: true });
      const result = await generate({ spec, targets: ['validators', 'client'] });
      await writeFiles(out, result.files, { check: false });
      const client = result.files.find((f) => f.path === 'client/index.ts');
      expect(client).toBeDefined();
      expect(client!.contents).toContain("from '../validators/index.js'");
      expect(typeCheck([path.join(out, 'client/index.ts')])).toEqual([]);
      expect(client!.contents.match(/core\.operation\(/g)?.length ?? 0).toBe(new Set(result.built.api.operations.map((o) => o.operationId)).size);
    });
  }
});
