/**
 * The classification of each pattern's backtracking cost (src/ir/pattern-complexity.ts):
 * known shapes, a comparison with recheck (the ReDoS checker) over every pattern of the corpora,
 * and the attack inputs replayed through a step-counting backtracking matcher.
 */
import { checkSync } from 'recheck';
import { beforeAll, describe, expect, it } from 'vitest';
import { classifyPattern, isSuperLinear, type PatternComplexity } from '../src/ir/pattern-complexity.js';
import { patternFlags } from '../src/ir/pattern.js';
import { countSteps, StepBudgetExceeded } from './support/backtracking-steps.js';
import { corpusPatterns, type CorpusPattern } from './support/corpus-patterns.js';

type Expected = 'linear' | 'exponential' | number;

/** Shapes whose class is known from the literature and the issue (source, class or degree). */
const KNOWN_SHAPES: ReadonlyArray<readonly [string, Expected]> = [
  ['^([a-z0-9]+-?)*[a-z0-9]+$', 'exponential'], // the slug of the issue
  ['^.*@.*\\..*', 2], // the e-mail of the issue
  ['^(https?:\\/\\/)?([\\da-z\\.-]+)\\.([a-z\\.]{2,6})([\\/\\w \\.-]*)*\\/?$', 'exponential'], // the URL of the issue
  ['^(a|a)*$', 'exponential'],
  ['(a*)*b', 'exponential'],
  ['(\\w+\\s?)+$', 'exponential'],
  ['^((a|a)*b)?', 'exponential'], // the costly alternative is tried before the empty one succeeds
  ['^(a|a){1,1000}$', 'exponential'], // a huge counted repeat, over-approximated, stays exponential
  ['^([a-z]{1,40}\\s?){1,40}$', 'exponential'], // classified without ever running it (V8 would not return)
  ['^(\\p{Nd}|[0-9])+$', 'exponential'], // a property escape read exactly: ASCII digits are in Nd
  ['^(a|b|ab)*c$', 'exponential'], // "ab" read as one alternative or as two
  ['^(a+?)+$', 'exponential'], // lazy quantifiers try the same paths in another order
  ['(x+x+)+y', 'exponential'],
  ['^a*a*$', 2],
  ['\\s*$', 2],
  ['^.*?,.*?,.*$', 3],
  ['<[^>]*>.*</[^>]*>', 3],
  ['^(.*?,){10}$', 10], // a counted repeat unrolled: ten loops in a chain
  ['^a*a*a*$', 3],
  ['^.+\\..+\\..+$', 3],
  ['[a-z]+x', 2], // unanchored: the search retries at every start
  ['a+$', 2],
  ['\\d+\\.\\d+$', 2],
  ['a+(?=b)', 2],
  ['^\\d+\\.\\d+$', 'linear'],
  ['^[A-Z]{3}$', 'linear'],
  ['^[a-z]{1,1000}$', 'linear'],
  ['^\\d{1,255}$', 'linear'],
  ['(a|a)*', 'linear'], // a search that succeeds at once, whatever follows
  ['(a|a?)+', 'linear'],
  ['^(a|ab)*c$', 'linear'], // "a" and "ab" never read the same text the same way
  ['^([^,]*,)*[^,]*$', 'linear'],
  ['\\b\\w+\\b\\s*$', 2], // over-approximated: see OVER_APPROXIMATIONS
  ['[a-z]+', 'linear'],
  ['[a-zA-Z0-9]+(-[a-zA-Z0-9]+)*', 'linear'], // every failure backtracks into a place where the match may end
  ['^[a-z0-9]+(-[a-z0-9]+)*$', 'linear'], // the slug written safely
  ['^(?=.*[A-Z]).{8,}$', 'linear'],
  ['^\\p{L}+( \\p{L}+)*$', 'linear'], // a space is no letter
  ['^(\\p{L}|\\P{L})+$', 'linear'],
  ['^[^@]+@[^@.]+\\.[^@]+$', 'linear'],
  ['^\\+?[0-9]{1,15}$', 'linear'],
];

function describeClass(c: PatternComplexity): Expected {
  return c.kind === 'polynomial' ? c.degree : c.kind;
}

function classify(source: string): PatternComplexity {
  return classifyPattern(source, patternFlags(source)!);
}

describe('classifyPattern on known shapes', () => {
  it.each(KNOWN_SHAPES)('%s is %s', (source, expected) => {
    expect(describeClass(classify(source))).toBe(expected);
  });

  it('answers the same for the same pattern', () => {
    for (const [source] of KNOWN_SHAPES) expect(classify(source)).toStrictEqual(classify(source));
  });

  it('reads patterns valid only without the u flag', () => {
    // `\-` outside a class is refused with u.
    expect(patternFlags('^([a-z]+\\-?)*$')).toBe('');
    expect(classifyPattern('^([a-z]+\\-?)*$', '').kind).toBe('exponential');
    expect(classifyPattern('^[a-z]+\\-[a-z]+$', '').kind).toBe('linear');
  });

  it('bounds its own work on nested huge counted repeats', () => {
    // Unrolled, these would be millions of states; over-approximated, the answer errs upwards.
    expect(isSuperLinear(classify('^((a{1,1000}){1,1000}){1,1000}$'))).toBe(true);
    expect(classify('^[0-9]{1,1000}[a-z]{1,1000}$').kind).toBe('linear');
  });

  it('calls super-linear a counted repeat V8 spreads a failing value over in many ways', () => {
    // No loop, yet `^(?:a?){28}$` takes V8 seconds on 14 a's and a b: C(28, 14) ways to choose
    // which copies take the a's; `(?:a|a){n}` has 2^n paths.
    expect(classify('^(?:a?){40}$').kind).toBe('exponential');
    expect(classify('^(?:[a-z]?){64}$').kind).toBe('exponential');
    expect(classify('^(?<n>a?){10}$').kind).toBe('exponential');
    expect(classify('^(?:a|a){40}$').kind).toBe('exponential');
    // The copies multiply through nesting and add along a sequence; a skippable copy is a choice.
    expect(classify('^(?:(?:a?){6}){6}$').kind).toBe('exponential');
    expect(classify('^(?:a?){7}(?:a?){7}(?:a?){7}$').kind).toBe('exponential');
    expect(classify(`^${'[a-z]?'.repeat(26)}$`).kind).toBe('exponential');
    expect(classify('^(?:\\b){40}a$').kind).toBe('linear');
    // The copies past the minimum cannot be empty, and few required copies cost little.
    expect(classify('^(?:a?){0,300}$').kind).toBe('linear');
    expect(classify('^(?:a?){3}$').kind).toBe('linear');
    expect(classify('^\\d{1,3}(\\.\\d{1,3}){3}$').kind).toBe('linear');
  });

  it('bounds its own work on huge counts of what adds no position (empty groups, assertions)', () => {
    // Each copy of `(?:)` or `(?:^)` adds no position, yet unrolling it costs a step per copy.
    const started = Date.now();
    expect(classify('^(?:){4000000000}[a-z]+$').kind).toBe('linear');
    expect(classify('^(?:\\b){4000000000}x$').kind).toBe('linear');
    expect(classify('^(a|a)*(?:){9007199254740991}$').kind).toBe('exponential');
    // A safety bound for a denial-of-service test: unbounded, this takes minutes.
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

/**
 * Patterns we call super-linear where recheck calls them safe, each with the reason (our
 * analysis over-approximates there, which is allowed; recheck's misses are not).
 */
const OVER_APPROXIMATIONS = new Map<string, string>([
  [
    '\\b\\w+\\b\\s*$',
    'a word boundary is assumed to hold anywhere; it really stops the search from starting inside a word, which is what keeps this pattern linear',
  ],
]);

interface Verdicts {
  readonly pattern: CorpusPattern;
  readonly ours: PatternComplexity;
  readonly recheck: 'vulnerable' | 'safe' | 'unknown';
}

describe('against recheck, over every pattern of the corpora and the known shapes', () => {
  let verdicts: Verdicts[];
  beforeAll(() => {
    const known: CorpusPattern[] = KNOWN_SHAPES.map(([source]) => ({ source, flags: patternFlags(source)!, foundIn: 'known shapes' }));
    const all = [...new Map([...corpusPatterns(), ...known].map((p) => [`${p.flags}/${p.source}`, p])).values()];
    verdicts = all.map((pattern) => {
      // A per-pattern timeout keeps the run short; a pattern recheck cannot settle in it is "unknown".
      const result = checkSync(pattern.source, pattern.flags, { timeout: 1000 });
      return { pattern, ours: classifyPattern(pattern.source, pattern.flags), recheck: result.status };
    });
    const count = (f: (v: Verdicts) => boolean) => verdicts.filter(f).length;
    console.info(
      `patterns: ${verdicts.length}; both super-linear: ${count((v) => v.recheck === 'vulnerable' && isSuperLinear(v.ours))}; ` +
        `both linear: ${count((v) => v.recheck === 'safe' && !isSuperLinear(v.ours))}; ` +
        `over-approximated: ${count((v) => v.recheck === 'safe' && isSuperLinear(v.ours))}; ` +
        `recheck undecided in 1 s: ${count((v) => v.recheck === 'unknown')} (ours super-linear for ${count((v) => v.recheck === 'unknown' && isSuperLinear(v.ours))})`,
    );
  }, 120_000);

  it('reads more than the known shapes (the corpora are there)', () => {
    expect(verdicts.filter((v) => v.pattern.foundIn !== 'known shapes').length).toBeGreaterThan(40);
  });

  it('never calls linear a pattern recheck finds vulnerable', () => {
    const missed = verdicts.filter((v) => v.recheck === 'vulnerable' && !isSuperLinear(v.ours)).map((v) => v.pattern.source);
    expect(missed).toStrictEqual([]);
  });

  it('over-approximates only where listed, with a reason', () => {
    const over = verdicts.filter((v) => v.recheck === 'safe' && isSuperLinear(v.ours)).map((v) => v.pattern.source);
    expect(over.sort()).toStrictEqual([...OVER_APPROXIMATIONS.keys()].sort());
  });
});

describe('the attack inputs', () => {
  const BUDGET = 2_000_000;
  const steps = (source: string, flags: 'u' | '', input: string) => {
    try {
      return countSteps(source, flags, input, BUDGET).steps;
    } catch (error) {
      if (error instanceof StepBudgetExceeded) return BUDGET;
      throw error;
    }
  };
  const sample = () =>
    [...KNOWN_SHAPES.map(([source]) => ({ source, flags: patternFlags(source)! })), ...corpusPatterns()]
      // The step counter models neither backreferences nor lookbehinds.
      .filter((p) => !/\\[1-9k]|\(\?<[=!]/.test(p.source))
      // Listed over-approximations are linear in truth: their attack shows nothing.
      .filter((p) => !OVER_APPROXIMATIONS.has(p.source))
      .map((p) => ({ ...p, complexity: classifyPattern(p.source, p.flags) }))
      .filter((p) => isSuperLinear(p.complexity));

  it('are refused by the pattern, as V8 and the step counter both say', () => {
    for (const { source, flags, complexity } of sample()) {
      if (complexity.kind === 'linear') continue;
      const { prefix, pump, suffix } = complexity.attack;
      for (const n of [1, 2, 3]) {
        const input = prefix + pump.repeat(n) + suffix;
        let matched: boolean;
        try {
          matched = countSteps(source, flags, input, BUDGET).matched;
        } catch (error) {
          // Beyond the budget already: V8 would not answer in time either.
          if (error instanceof StepBudgetExceeded) continue;
          throw error;
        }
        expect(matched, `${source} on ${JSON.stringify(input)}`).toBe(new RegExp(source, flags).test(input));
      }
    }
  });

  it('make the backtracking work grow as the class says', { timeout: 60_000 }, () => {
    const tested = sample();
    expect(tested.length).toBeGreaterThan(15);
    for (const { source, flags, complexity } of tested) {
      if (complexity.kind === 'linear') continue;
      const { prefix, pump, suffix } = complexity.attack;
      const label = `${source} with ${JSON.stringify(complexity.attack)}`;
      if (complexity.kind === 'exponential') {
        const smallInput = prefix + pump.repeat(6) + suffix;
        const small = steps(source, flags, smallInput);
        if (small >= BUDGET) {
          // Millions of steps on a few hundred characters: no linear matcher does that.
          expect(smallInput.length, label).toBeLessThan(400);
          continue;
        }
        const large = steps(source, flags, prefix + pump.repeat(12) + suffix);
        // Six more pumps: at least 2^3 times the work (2^6 when each pump doubles the paths; the
        // step budget caps the larger count, which only understates the growth).
        expect(large / small, label).toBeGreaterThanOrEqual(8);
      } else {
        const n = Math.max(1, Math.ceil(40 / pump.length));
        const smallInput = prefix + pump.repeat(n) + suffix;
        const small = steps(source, flags, smallInput);
        if (small >= BUDGET) {
          expect(complexity.degree, label).toBeGreaterThanOrEqual(3); // n^3 and more on ~40 characters
          continue;
        }
        const large = steps(source, flags, prefix + pump.repeat(2 * n) + suffix);
        // Twice the input: more than twice the work, as n^2 at least (4x less lower-order terms).
        expect(large / small, label).toBeGreaterThan(3);
      }
    }
  });
});
