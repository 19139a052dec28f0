#!/usr/bin/env node
// `pnpm release:check`: what must hold before a package goes to a registry. Each published
// package must be built, carry a changelog whose newest section is its version and names the
// spec versions it carries, agree with its `bankDataSharing.specVersions` field, and pass
// publint (strict) and @arethetypeswrong/cli on the packed tarball.
//
//   --packaging   publint and attw only (CI runs this on every change; the version checks
//                 apply when releasing, after `pnpm version-packages`)
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { ROOT, bin, latestChangelogSection, publishedPackages, run, specLine, specVersions } from './workspace.mjs';

const packagingOnly = process.argv.includes('--packaging');
const problems = [];

/**
 * The subpaths attw should resolve: every literal export, and one per generated API for the
 * `./*` pattern (attw cannot enumerate a pattern by itself).
 */
function entrypoints(manifest, versions) {
  const literal = Object.keys(manifest.exports ?? {}).filter((key) => !key.includes('*') && key !== './package.json');
  const patterned = Object.keys(manifest.exports ?? {}).some((key) => key === './*') ? Object.keys(versions).map((s) => `./${s}`) : [];
  return [...literal, ...patterned];
}

for (const { dir, manifest } of publishedPackages()) {
  const name = manifest.name;
  const rel = path.relative(ROOT, dir);
  console.log(`\n== ${name}@${manifest.version} (${rel})`);
  if (!existsSync(path.join(dir, 'dist'))) {
    problems.push(`${name}: not built (no dist/); run pnpm build`);
    continue;
  }
  const versions = specVersions(dir);

  if (!packagingOnly) {
    const recorded = manifest.bankDataSharing?.specVersions ?? {};
    if (!isDeepStrictEqual(recorded, versions)) {
      problems.push(
        `${name}: package.json says it carries ${JSON.stringify(recorded)} but the generated code is ${JSON.stringify(versions)}; ` +
          'add a changeset (pnpm changeset) and run pnpm version-packages',
      );
    }
    const changelogFile = path.join(dir, 'CHANGELOG.md');
    const section = existsSync(changelogFile) ? latestChangelogSection(readFileSync(changelogFile, 'utf8')) : undefined;
    if (!section) problems.push(`${name}: no CHANGELOG.md with a "## <version>" section`);
    else if (section.version !== manifest.version) {
      problems.push(`${name}: CHANGELOG.md's newest section is ${section.version}, package.json says ${manifest.version}`);
    } else if (Object.keys(versions).length > 0 && !section.body.includes(specLine(versions))) {
      problems.push(`${name}: the ${section.version} section of CHANGELOG.md does not say "${specLine(versions)}"; run pnpm version-packages`);
    }
  }

  if (run(bin('publint'), ['run', dir, '--strict']) !== 0) problems.push(`${name}: publint`);
  // esm-only profile: the packages are ES modules. Node 20.19+ loads them with require() too
  // (require(esm), which the release test checks), but attw 0.18 does not model require(esm)
  // yet and would report every CommonJS resolution as "dynamic import only".
  const attw = ['--pack', dir, '--profile', 'esm-only', '--format', 'table-flipped', '--entrypoints', ...entrypoints(manifest, versions)];
  if (run(bin('attw'), attw) !== 0) problems.push(`${name}: @arethetypeswrong/cli`);
}

if (problems.length > 0) {
  console.error(`\nrelease check: ${problems.length} problem(s)`);
  for (const problem of problems) console.error(`- ${problem}`);
  process.exit(1);
}
console.log('\nrelease check: every published package is ready');
