/**
 * Values near a valid one: one change each, at a place chosen by a seeded generator. Some stay
 * valid (a string that needs escaping, -0, a member set to undefined), most do not (a member
 * left out or of another type, an unknown member, null). The writers' differential test runs
 * each through the writer and through zod.
 */

type Path = ReadonlyArray<string | number>;

/** A small seeded generator (xorshift32), so that a failure is the same on every run. */
function random(seed: number): () => number {
  let state = (seed * 2654435761) >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

function containers(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  if (out.length >= 400) return out;
  if (Array.isArray(value)) {
    out.push(path);
    value.forEach((item, i) => containers(item, [...path, i], out));
  } else if (value !== null && typeof value === 'object') {
    out.push(path);
    for (const [key, member] of Object.entries(value)) containers(member, [...path, key], out);
  }
  return out;
}

function at(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, key) => (v as Record<string | number, unknown>)[key], value);
}

/** What a member or item becomes: another type, or a value that needs care when written. */
function replacement(old: unknown, pick: number): unknown {
  const choices: unknown[] = [
    null,
    typeof old === 'string' ? 1 : 'text',
    typeof old === 'number' ? String(old) : 0,
    typeof old === 'boolean' ? 'true' : false,
    Array.isArray(old) ? {} : [],
    typeof old === 'string' ? `${old}"\\\n\u0001\ud800` : -0,
    typeof old === 'string' ? `${old}\u{1F600}é` : 1e21,
    typeof old === 'number' ? old + 0.5 : undefined,
    typeof old === 'number' ? Number.NaN : 'x',
  ];
  return choices[pick % choices.length];
}

export interface Mutation {
  /** What was changed, for a failure message. */
  change: string;
  value: unknown;
}

/** `count` mutations of `value` (a JSON value), each one change to a copy. */
export function mutations(value: unknown, count: number, seed: number): Mutation[] {
  const next = random(seed);
  const places = containers(value);
  const out: Mutation[] = [];
  if (places.length === 0) {
    for (let i = 0; i < count; i++) out.push({ change: `replaced by #${i}`, value: replacement(value, i) });
    return out;
  }
  for (let i = 0; i < count; i++) {
    const copy = structuredClone(value);
    const path = places[Math.floor(next() * places.length)]!;
    const target = at(copy, path) as Record<string | number, unknown>;
    const keys = Object.keys(target);
    const where = `/${path.join('/')}`;
    const kind = Math.floor(next() * 4);
    if (kind === 0 && keys.length > 0 && !Array.isArray(target)) {
      const key = keys[Math.floor(next() * keys.length)]!;
      delete target[key];
      out.push({ change: `${where}: ${key} left out`, value: copy });
    } else if (kind === 1 && !Array.isArray(target)) {
      target['zzUnknownMember'] = next() < 0.5 ? 1 : { nested: 'x' };
      out.push({ change: `${where}: an unknown member`, value: copy });
    } else if (keys.length > 0) {
      const key = Array.isArray(target) ? Math.floor(next() * target.length) : keys[Math.floor(next() * keys.length)]!;
      const pick = Math.floor(next() * 9);
      target[key] = replacement(target[key], pick);
      out.push({ change: `${where}/${String(key)}: replaced (#${pick})`, value: copy });
    } else {
      out.push({ change: `${where}: unchanged`, value: copy });
    }
  }
  return out;
}
