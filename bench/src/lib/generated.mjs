// Generating code with the codegen CLI and turning the TypeScript it writes into importable
// JavaScript (ts.transpileModule: per file, types erased, nothing checked).
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { codegenBin } from './paths.mjs';
import { runChecked } from './proc.mjs';

const require = createRequire(import.meta.url);
const ts = require('typescript');

/** Runs `codegen generate` for `spec` into `outDir` (the CLI writes `<outDir>/<target>/...`). */
export function generate(spec, outDir, target = 'all') {
  return runChecked({ args: [codegenBin, 'generate', '--spec', spec, '--out', outDir, '--target', target, '--quiet'] });
}

export function listFiles(dir, ext) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(full, ext));
    else if (!ext || entry.name.endsWith(ext)) out.push(full);
  }
  return out.sort();
}

/** Writes `x.js` beside every `x.ts` under `dir`. */
export function transpileDir(dir) {
  for (const file of listFiles(dir, '.ts')) {
    if (file.endsWith('.d.ts')) continue;
    const out = ts.transpileModule(readFileSync(file, 'utf8'), {
      fileName: file,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false, isolatedModules: true },
    });
    writeFileSync(file.replace(/\.ts$/, '.js'), out.outputText);
  }
}

/** Copies a folder tree (small generated folders only). */
export function copyDir(from, to) {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const src = path.join(from, entry.name);
    const dst = path.join(to, entry.name);
    if (entry.isDirectory()) copyDir(src, dst);
    else copyFileSync(src, dst);
  }
}
