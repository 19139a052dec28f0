#!/usr/bin/env node
// `pnpm version-packages`: `changeset version` (bumps versions, writes each CHANGELOG.md and
// turns workspace ranges into the new versions where needed), then records in each package
// which spec versions that version carries: the `bankDataSharing.specVersions` field of its
// package.json (visible to consumers with `npm view <name>@<version> bankDataSharing`) and a
// line under the newest section of its changelog.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { bin, latestChangelogSection, publishedPackages, run, specLine, specVersions } from './workspace.mjs';

if (!process.argv.includes('--no-changeset')) {
  const status = run(bin('changeset'), ['version']);
  if (status !== 0) process.exit(status);
}

for (const { dir } of publishedPackages()) {
  const manifestFile = path.join(dir, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  const versions = specVersions(dir);
  if (Object.keys(versions).length === 0) continue;

  manifest.bankDataSharing = { ...manifest.bankDataSharing, specVersions: versions };
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);

  const changelogFile = path.join(dir, 'CHANGELOG.md');
  if (!existsSync(changelogFile)) continue;
  const text = readFileSync(changelogFile, 'utf8');
  const section = latestChangelogSection(text);
  if (!section || section.version !== manifest.version || section.body.includes(specLine(versions))) continue;
  const heading = `## ${section.version}\n`;
  const at = text.indexOf(heading) + heading.length;
  writeFileSync(changelogFile, `${text.slice(0, at)}\n${specLine(versions)}\n${text.slice(at)}`);
  console.log(`${manifest.name}@${manifest.version}: ${specLine(versions)}`);
}
