import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The codegen package folder. */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The workspace root. */
export const REPO_ROOT = path.resolve(PACKAGE_ROOT, '../..');
/** Official OpenAPI files, kept beside the repository (never copied into it). */
export const REAL_SPECS_DIR = path.resolve(REPO_ROOT, '../shared/real-specs');

export interface SpecFile {
  /** Short label for test names and summaries. */
  label: string;
  file: string;
  /** Official files may be absent on a machine; our own spec is always there. */
  official: boolean;
}

export const OFFICIAL_ACCOUNT_INFORMATION: SpecFile = {
  label: 'official account-information (v2.1 errata 2)',
  file: path.join(REAL_SPECS_DIR, 'standards-v2.1-errata2-account-information.yaml'),
  official: true,
};
export const OFFICIAL_BANK_INITIATION: SpecFile = {
  label: 'official bank-initiation (v2.1 errata 2)',
  file: path.join(REAL_SPECS_DIR, 'standards-v2.1-errata2-bank-initiation.yaml'),
  official: true,
};
export const OFFICIAL_OZONE: SpecFile = {
  label: 'official ozone connect (v2.1.x)',
  file: path.join(REAL_SPECS_DIR, 'ozone-connect-v2.1.x-bank-data-sharing.yaml'),
  official: true,
};
export const OWN_ACCOUNT_INFORMATION: SpecFile = {
  label: 'our spec/v2.2/account-information.yaml',
  file: path.join(REPO_ROOT, 'spec/v2.2/account-information.yaml'),
  official: false,
};

/** True when the file exists; otherwise prints why the tests that need it are skipped. */
export function specAvailable(spec: SpecFile): boolean {
  if (existsSync(spec.file)) return true;
  console.log(`skipping ${spec.label}: ${path.relative(REPO_ROOT, spec.file)} is not present on this machine`);
  return false;
}
