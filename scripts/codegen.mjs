#!/usr/bin/env node
// `npm run codegen -- <command>` and `pnpm codegen <command>`: the generator's CLI, run in the
// folder the command was typed in. npm and pnpm run a root script from the repository root
// and pass the caller's folder as INIT_CWD; without this, a relative --spec, --out or diff
// file would be read from the repository root instead of from where the user is. Only then:
// run from any other folder (`cd specs && node <repo>/scripts/codegen.mjs ...` inside some
// other npm script, whose INIT_CWD is that script's start), the folder it runs in is the one.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runByNpmAtRoot = realpathSync(process.cwd()) === realpathSync(root);
if (process.env.INIT_CWD && runByNpmAtRoot) process.chdir(process.env.INIT_CWD);
await import(pathToFileURL(path.join(root, 'packages', 'codegen', 'bin', 'codegen.mjs')).href);
