/**
 * One name per operation: the identifier its server handler, client method, validators entry
 * and scaffold stub all use. Decided here, once, so that no emitter invents its own.
 *
 * An operationId that already is an identifier keeps its exact spelling (a team's handlers
 * and calls keep compiling); any other one becomes lowerCamel (`find pet by id` →
 * `findPetById`), the way JavaScript names methods. Two operations that would share a name
 * are told apart with `_2`, `_3`... in document order, and the rename is reported.
 */
import type { Diagnostic, HttpMethod, JsonPointer } from './types.js';

/**
 * Words a name cannot be: reserved words (not bindable, so not a scaffold export), names
 * TypeScript refuses to declare, and members every object inherits (a handlers object or
 * client would answer `toString` although nobody wrote it; `__proto__` in an object literal
 * sets the prototype instead of a member). `then` too: an object with a `then` method is taken
 * for a promise, so `await` on a client or a handlers object would call that operation.
 */
const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for function ' +
    'if import in instanceof new null return super switch this throw true try typeof var void while with ' +
    'implements interface let package private protected public static yield await arguments eval undefined NaN Infinity ' +
    'constructor __proto__ toString toLocaleString valueOf hasOwnProperty isPrototypeOf propertyIsEnumerable ' +
    '__defineGetter__ __defineSetter__ __lookupGetter__ __lookupSetter__ then'
  ).split(' '),
);

const IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u;

/** Whether `name` can be used as it is: an identifier that is no reserved or inherited name. */
export function isOperationName(name: string): boolean {
  return IDENTIFIER.test(name) && !RESERVED.has(name);
}

/** Words of a name: runs of identifier characters, split at anything else and at `_`. */
function words(text: string): string[] {
  return text.split(/[^\p{ID_Continue}]+|_+/u).filter((w) => w !== '');
}

/** `URLList` → `urlList`, `ID` → `id`, `Find` → `find`: lower-cases the leading capitals run. */
function lowerFirstWord(word: string): string {
  if (/^[\p{Lu}\p{N}]+$/u.test(word)) return word.toLowerCase();
  const run = /^\p{Lu}+(?=\p{Lu}\p{Ll})/u.exec(word);
  if (run) return run[0].toLowerCase() + word.slice(run[0].length);
  return word.charAt(0).toLowerCase() + word.slice(1);
}

/** `pet` → `Pet`; an all-capitals word (`BY`, `ID`) reads better as `By`, `Id` inside camelCase. */
function capitalize(word: string): string {
  const normal = /^[\p{Lu}\p{N}]{2,}$/u.test(word) ? word.charAt(0) + word.slice(1).toLowerCase() : word;
  return normal.charAt(0).toUpperCase() + normal.slice(1);
}

/** `GET /pets/{id}/toys` → `getPetsIdToys`: the name of an operation without a usable operationId. */
function nameFromRoute(method: HttpMethod, path: string): string {
  return camelName(`${method.toLowerCase()} ${path}`) ?? method.toLowerCase();
}

/** lowerCamel of the words of `text`, made an identifier; undefined when it has no words. */
function camelName(text: string): string | undefined {
  const [first, ...rest] = words(text);
  if (first === undefined) return undefined;
  const name = lowerFirstWord(first) + rest.map(capitalize).join('');
  return /^\p{ID_Start}/u.test(name) ? name : `_${name}`;
}

/**
 * The name `operationId` asks for, before collisions: itself when it is usable, else its
 * lowerCamel form (the route's when it has no word at all), with `_` after a reserved word.
 */
export function wantedOperationName(operationId: string, method: HttpMethod, path: string): string {
  if (isOperationName(operationId)) return operationId;
  const name = camelName(operationId) ?? nameFromRoute(method, path);
  return RESERVED.has(name) ? `${name}_` : name;
}

export interface NamedOperation {
  operationId: string;
  method: HttpMethod;
  path: string;
  pointer: JsonPointer;
}

/**
 * The name of every operation, in the order given, and a warning per collision. Operations
 * whose operationId is usable as it is are named first, so that a derived name never takes
 * the exact name another operation was given.
 */
export function assignOperationNames(operations: readonly NamedOperation[]): { names: string[]; diagnostics: Diagnostic[] } {
  const names: string[] = new Array<string>(operations.length);
  const holder = new Map<string, NamedOperation>();
  const diagnostics: Diagnostic[] = [];
  const order = operations.map((op, index) => ({ op, index, exact: isOperationName(op.operationId) }));
  order.sort((a, b) => Number(b.exact) - Number(a.exact) || a.index - b.index);
  for (const { op, index } of order) {
    const wanted = wantedOperationName(op.operationId, op.method, op.path);
    let name = wanted;
    for (let n = 2; holder.has(name); n++) name = `${wanted}_${n}`;
    if (name !== wanted) {
      const other = holder.get(wanted)!;
      diagnostics.push({
        severity: 'warning',
        code: 'operation-name-collision',
        pointer: op.pointer,
        message:
          `operationId ${JSON.stringify(op.operationId)} (${op.method.toUpperCase()} ${op.path}) and ${JSON.stringify(other.operationId)} ` +
          `(${other.method.toUpperCase()} ${other.path}) both make the name "${wanted}"; the first is named "${name}" in handlers, client and validators`,
      });
    }
    holder.set(name, op);
    names[index] = name;
  }
  return { names, diagnostics };
}
