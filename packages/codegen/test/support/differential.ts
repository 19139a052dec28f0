/**
 * The differential check: for every component schema of a spec, seeded valid instances and
 * mutations of them are given to the generated zod validator and to ajv (with the
 * generator's allOf reading); both must say the same. Every instance is also given to the
 * schema's generated check function, which must answer exactly as zod's parse does.
 */
import fc from 'fast-check';
import { loadSpec } from '../../src/load/load-spec.js';
import { buildAjvOracle, type AjvOracle } from './ajv-oracle.js';
import { loadGeneratedValidators } from './generated-validators.js';
import { hashString, InstanceGenerator, pickMutants, UnsatisfiableSchema, type PathItem } from './instances.js';

export interface DifferentialOptions {
  /** Base seed; each schema's seed is derived from it and the schema's name. */
  seed: number;
  validPerSchema: number;
  mutantsPerSchema: number;
}

export const DEFAULT_OPTIONS: DifferentialOptions = { seed: 20260701, validPerSchema: 20, mutantsPerSchema: 40 };

/**
 * The kind of a generated instance the walk could not make sure is valid (see
 * Sample.uncertain): ajv rejecting it is not a generator bug, zod must still agree with ajv.
 */
export const UNCERTAIN = 'valid?';

export interface Disagreement {
  schema: string;
  /** `valid` for a generated valid instance, `valid?` for an uncertain one, else the mutation kind. */
  kind: string;
  path: PathItem[];
  value: unknown;
  ajv: boolean;
  zod: boolean;
  ajvErrors: string;
  zodIssues: string;
  /** The reading both sides applied (`exact` for 3.1 documents, `lenient` for 3.0). */
  reading: 'exact' | 'lenient';
}

export interface SchemaCount {
  schema: string;
  valid: number;
  mutants: number;
  /** Mutants both validators rejected. */
  rejected: number;
}

export interface DifferentialReport {
  counts: SchemaCount[];
  disagreements: Disagreement[];
  /**
   * Valid instances where zod's output differs from the input with ajv's defaults applied
   * (a validator must not drop, add or change members, except to fill a default).
   */
  outputMismatches: Array<{ schema: string; value: unknown; zod: unknown; ajv: unknown }>;
  /** Valid-by-construction instances ajv rejected: a bug in the instance generator. */
  generatorRejects: Disagreement[];
  /** Uncertain generated instances (kind `valid?`): how many, and how many ajv accepted. */
  uncertain: { instances: number; accepted: number };
  /** Schemas no instance could be built for, with the reason. */
  skipped: Array<{ schema: string; reason: string }>;
  /** Per mutation kind: how many mutants, and how many each side rejected. */
  kinds: Map<string, { mutants: number; ajvRejects: number; zodRejects: number }>;
  oracle: AjvOracle;
  diagnostics: number;
  /** Instances where a check function answered differently from zod's parse (must be none). */
  checkDisagreements: Array<{ schema: string; kind: string; value: unknown; check: boolean; zod: boolean }>;
  /** How many schemas have a check function, and how many instances they were given. */
  checked: { schemas: number; instances: number };
}

function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(record[k])}`)
    .join(',')}}`;
}

function describeValue(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

export async function runDifferential(specFile: string, options: DifferentialOptions = DEFAULT_OPTIONS): Promise<DifferentialReport> {
  const { document } = await loadSpec(specFile);
  const validators = await loadGeneratedValidators(specFile);
  const oracle = buildAjvOracle(document);
  const generator = new InstanceGenerator({ document });
  const components = (document['components'] as { schemas?: Record<string, unknown> } | undefined)?.schemas ?? {};
  const report: DifferentialReport = { counts: [], disagreements: [], generatorRejects: [], uncertain: { instances: 0, accepted: 0 }, outputMismatches: [], skipped: [], kinds: new Map(), oracle, diagnostics: validators.result.diagnostics.length, checkDisagreements: [], checked: { schemas: 0, instances: 0 } };

  for (const name of Object.keys(components)) {
    const zod = validators.schemas[name];
    if (!zod) throw new Error(`the generated validators have no schema named ${name}`);
    const seed = (options.seed ^ hashString(name)) >>> 0;
    let samples;
    try {
      samples = fc.sample(generator.forComponent(name), { seed, numRuns: options.validPerSchema });
    } catch (error) {
      if (!(error instanceof UnsatisfiableSchema)) throw error;
      report.skipped.push({ schema: name, reason: error.message });
      continue;
    }
    const mutants = pickMutants(samples, options.mutantsPerSchema, seed);
    const count: SchemaCount = { schema: name, valid: samples.length, mutants: mutants.length, rejected: 0 };
    const checkFunction = validators.checks[name];
    if (checkFunction) report.checked.schemas++;
    const check = (value: unknown, kind: string, path: PathItem[]): void => {
      const ajvOk = oracle.validate(name, value);
      const ajvErrors = ajvOk ? '' : oracle.errorsText(name);
      const parsed = zod.safeParse(value);
      const zodIssues = parsed.success ? '' : (parsed.error?.issues ?? []).map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`).join('; ');
      const entry: Disagreement = { schema: name, kind, path, value, ajv: ajvOk, zod: parsed.success, ajvErrors, zodIssues, reading: oracle.reading };
      if (checkFunction) {
        report.checked.instances++;
        const answer = checkFunction(value);
        if (answer !== parsed.success) report.checkDisagreements.push({ schema: name, kind, value, check: answer, zod: parsed.success });
      }
      const generated = kind === 'valid' || kind === UNCERTAIN;
      if (kind === 'valid' && !ajvOk) report.generatorRejects.push(entry);
      if (kind === UNCERTAIN) {
        report.uncertain.instances++;
        if (ajvOk) report.uncertain.accepted++;
      }
      if (generated && ajvOk && parsed.success) {
        const expected = oracle.withDefaults(name, value);
        if (canonical(parsed.data) !== canonical(expected)) report.outputMismatches.push({ schema: name, value, zod: parsed.data, ajv: expected });
      }
      if (ajvOk !== parsed.success) report.disagreements.push(entry);
      if (!generated && !ajvOk && !parsed.success) count.rejected++;
      if (!generated) {
        const tally = report.kinds.get(kind) ?? { mutants: 0, ajvRejects: 0, zodRejects: 0 };
        tally.mutants++;
        if (!ajvOk) tally.ajvRejects++;
        if (!parsed.success) tally.zodRejects++;
        report.kinds.set(kind, tally);
      }
    };
    for (const sample of samples) check(sample.value, sample.uncertain ? UNCERTAIN : 'valid', []);
    for (const mutant of mutants) check(mutant.value, mutant.kind, mutant.path);
    report.counts.push(count);
  }
  return report;
}

/** One line per disagreement, for failure messages. */
/** One line per check function that disagreed with zod. */
export function formatCheckDisagreement(d: DifferentialReport['checkDisagreements'][number]): string {
  return `${d.schema} [${d.kind}]: check ${d.check ? 'accepts' : 'rejects'}, zod ${d.zod ? 'accepts' : 'rejects'}; value ${describeValue(d.value)}`;
}

export function formatDisagreement(d: Disagreement): string {
  return `${d.schema} [${d.kind}] at /${d.path.join('/')}: ajv ${d.ajv ? 'accepts' : 'rejects'}, zod ${d.zod ? 'accepts' : 'rejects'}; value ${describeValue(d.value)}${d.ajvErrors ? `; ajv: ${d.ajvErrors}` : ''}${d.zodIssues ? `; zod: ${d.zodIssues}` : ''}`;
}

/** The summary printed by the tests: totals, then every schema with its counts. */
export function formatCounts(label: string, report: DifferentialReport): string {
  const valid = report.counts.reduce((n, c) => n + c.valid, 0);
  const mutants = report.counts.reduce((n, c) => n + c.mutants, 0);
  const rejected = report.counts.reduce((n, c) => n + c.rejected, 0);
  const perSchema = report.counts.map((c) => `${c.schema} ${c.valid}+${c.mutants}`).join(', ');
  return [
    `check functions: ${report.checked.schemas} of ${report.counts.length} schemas have one, given ${report.checked.instances} instances, ${report.checkDisagreements.length} answers differing from zod`,
    `differential ${label}: ${report.counts.length} schemas, ${valid + mutants} instances (${valid} generated, of which ${report.uncertain.instances} uncertain and ${report.uncertain.accepted} of those valid for ajv; ${mutants} mutants of which ${rejected} rejected by both), ${report.disagreements.length} disagreements, ${report.outputMismatches.length} output mismatches, ${report.skipped.length} skipped`,
    `  per schema (valid+mutants): ${perSchema}`,
    `  mutation kinds (mutants/rejected by ajv/rejected by zod): ${[...report.kinds]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, t]) => `${k} ${t.mutants}/${t.ajvRejects}/${t.zodRejects}`)
      .join(', ')}`,
  ].join('\n');
}
