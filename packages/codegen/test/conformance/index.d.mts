// Types of the harness (plain JavaScript, so that the `pnpm conformance` command runs it
// with Node alone) as the TypeScript test sees them.

/** What the harness needs of the codegen package: its `generate`, from `src` or `dist`. */
export interface CodegenApi {
  generate(options: { spec: string; targets: readonly 'validators'[] }): Promise<{
    files: Array<{ path: string; contents: string }>;
    diagnostics: Array<{ severity: string; code: string; pointer?: string; message: string }>;
  }>;
}

export type Outcome = 'pass' | 'wrong' | 'refused';

export interface TestResult {
  group: number;
  test: number;
  description: string;
  valid: boolean;
  outcome: Outcome;
  /** Why a test is refused: the generator's error codes (or its error's class name). */
  codes?: string[];
  /** The answers that were asked, when one was wrong: `zod`, `check`, or `load`. */
  answers?: Record<string, boolean | string>;
}

export interface FileResult {
  draft: string;
  file: string;
  openapi: string;
  allowedRefusal: boolean;
  descriptions: string[];
  refusedGroups: Array<{ group: number; codes: string[]; messages: string[] }>;
  tests: TestResult[];
}

export interface Counts {
  tests: number;
  pass: number;
  refused: number;
  wrong: number;
}

export interface DraftTotals {
  draft: string;
  openapi: string;
  required: { files: Array<Counts & { file: string }>; total: Counts };
  allowedRefusals: { files: Array<Counts & { file: string }>; total: Counts };
}

export type Known = Record<string, Record<string, { refused: number[]; wrong: Array<[number, number]> }>>;

export const DRAFTS: ReadonlyArray<{ draft: string; folder: string; openapi: string; allowedRefusals: string[] }>;
export function defaultSuiteDir(repoRoot: string): string;
export function runConformance(options: {
  api: CodegenApi;
  suiteDir: string;
  drafts?: string[];
  file?: string;
  onProgress?: (progress: { done: number; total: number; draft: string; file: string }) => void;
}): Promise<FileResult[]>;
export function totals(results: FileResult[]): DraftTotals[];
export function wrongTests(results: FileResult[]): unknown[];
export function formatReport(results: FileResult[]): string;
export function formatTotals(results: FileResult[]): string;
export function jsonReport(results: FileResult[]): unknown;
export function knownFrom(results: FileResult[]): Known;
export function formatKnown(known: Known): string;
export function compareWithKnown(options: { results: FileResult[]; known: Known }): string[];
export function rebaseRefs(schema: unknown, name: string, openapi?: string): unknown;
export function documentFor(options: { openapi: string; groups: Array<{ index: number; schema: unknown }> }): Record<string, unknown>;
