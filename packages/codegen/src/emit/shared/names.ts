/**
 * The one place that turns names from the file into TypeScript identifiers. Emitters ask
 * here instead of inventing names, so two schemas can never collide in one module.
 */

const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for function ' +
    'if import in instanceof new null return super switch this throw true try typeof var void while with as implements ' +
    'interface let package private protected public static yield any boolean number string symbol type from of await ' +
    'undefined NaN Infinity Object Array String Number Boolean Symbol Error Promise Date RegExp Map Set JSON Math ' +
    'z rt schemas operations checks S C'
  ).split(' '),
);

/** A name made a JavaScript identifier, before reserved words are set aside. */
function identifierOf(name: string): string {
  const id = name.replace(/[^A-Za-z0-9_$]+(.)?/g, (_, next: string | undefined) => (next ? `_${next}` : '_'));
  return id === '' || /^[0-9]/.test(id) ? `_${id}` : id;
}

export function toIdentifier(name: string): string {
  const id = identifierOf(name);
  return RESERVED.has(id) ? `${id}_` : id;
}

export function isIdentifier(name: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) && !RESERVED.has(name);
}

/** A property key as written in an object literal: bare when possible, quoted otherwise. */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}

/** Assigns unique identifiers to names; stable for a given insertion order. */
export class NameResolver {
  private readonly byName = new Map<string, string>();
  private readonly taken = new Set<string>();
  /** The key each identifier was assigned to (reserved names have none). */
  private readonly ownerOf = new Map<string, string>();
  /** The identifier a key would have had, when it is not the one it got. */
  private readonly wantedOf = new Map<string, string>();

  constructor(reserved: Iterable<string> = []) {
    for (const r of reserved) this.taken.add(r);
  }

  /** `key` tells apart things that share a name (a schema and an operation called alike). */
  assign(name: string, key: string = name): string {
    const existing = this.byName.get(key);
    if (existing) return existing;
    const base = toIdentifier(name);
    let candidate = base;
    for (let n = 2; this.taken.has(candidate); n++) candidate = `${base}_${n}`;
    this.taken.add(candidate);
    this.byName.set(key, candidate);
    this.ownerOf.set(candidate, key);
    const natural = identifierOf(name);
    if (candidate !== natural) this.wantedOf.set(key, natural);
    return candidate;
  }

  /**
   * When `key` did not get the identifier its name gives, because something else holds it:
   * that identifier and the key holding it (none when the module itself reserves it).
   */
  renamed(key: string): { wanted: string; heldBy: string | undefined } | undefined {
    const wanted = this.wantedOf.get(key);
    return wanted === undefined ? undefined : { wanted, heldBy: this.ownerOf.get(wanted) };
  }

  get(name: string): string {
    const id = this.byName.get(name);
    if (id === undefined) throw new Error(`no identifier assigned to "${name}"`);
    return id;
  }
}
