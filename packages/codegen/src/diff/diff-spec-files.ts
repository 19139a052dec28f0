import { loadSpec } from '../load/load-spec.js';
import { buildIR } from '../ir/build-ir.js';
import { diffApis, type ApiDiff } from './diff-apis.js';

/**
 * What changed from one OpenAPI file to another: each is loaded (external `$ref`s bundled) and
 * read as `generate` reads it by default, then compared. `codegen diff` and the changelog go
 * through here, so a caller gets the same report they print.
 *
 * @throws SpecLoadError when a file cannot be read or is not an OpenAPI document.
 * @example
 * const diff = await diffSpecFiles('spec/v2.1/account-information.yaml', 'spec/v2.2/account-information.yaml');
 * const page = formatDiffHtml(diff);
 */
export async function diffSpecFiles(fromFile: string, toFile: string): Promise<ApiDiff> {
  const [before, after] = await Promise.all([loadSpec(fromFile), loadSpec(toFile)]);
  return diffApis(buildIR(before).api, buildIR(after).api);
}
