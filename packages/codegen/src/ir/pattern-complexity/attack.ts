/**
 * The end of an attack input: after the pumped part, a suffix that makes the whole search fail,
 * so the engine has to try every path before it gives up. Chosen by running the pattern itself
 * (V8, the engine being judged) on short inputs, where even an exponential pattern answers at once.
 */
const SUFFIX_CANDIDATES = ['!', '\u0000', ' ', '\n', '-', '.', '@', '/', '_', '0', 'a', 'A', '"', '\uffff', '!!', '\u0000\u0000'];

export function failingSuffix(regex: RegExp, prefix: string, pump: string, alphabet: readonly string[]): string {
  const fails = (suffix: string) => [1, 2, 3].every((n) => !regex.test(prefix + pump.repeat(n) + suffix));
  if (fails('')) return '';
  for (const candidate of [...SUFFIX_CANDIDATES, ...alphabet]) if (fails(candidate)) return candidate;
  // Every short input matches: the engine may still try the costly paths first (a lower-priority
  // alternative succeeds after them); the attack is then the pumped text alone.
  return '';
}
