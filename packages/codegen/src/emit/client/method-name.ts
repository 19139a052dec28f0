/**
 * Camel-case spellings of operation names, for the client's exported type names
 * (`FindPetByIdParams`). The methods themselves are the operations' names (`OperationIR.name`).
 */

/** Words of an identifier-ish name: split on anything that is not a letter or a digit. */
function words(name: string): string[] {
  return name.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
}

/** `URLList` → `urlList`, `ID` → `id`, `Accounts` → `accounts`: lower-cases the leading capitals run. */
function lowerFirstWord(word: string): string {
  if (/^[A-Z0-9]+$/.test(word)) return word.toLowerCase();
  const run = /^[A-Z]+(?=[A-Z][a-z])/.exec(word);
  if (run) return run[0].toLowerCase() + word.slice(run[0].length);
  return word.charAt(0).toLowerCase() + word.slice(1);
}

function capitalize(word: string): string {
  // An all-capitals word (GET, ACCOUNTS) reads better as Get, Accounts inside camelCase.
  const normal = /^[A-Z0-9]{2,}$/.test(word) ? word.charAt(0) + word.slice(1).toLowerCase() : word;
  return normal.charAt(0).toUpperCase() + normal.slice(1);
}

/** lowerCamel of an operationId (before collision handling by a NameResolver). */
export function methodName(operationId: string): string {
  const parts = words(operationId);
  if (parts.length === 0) return 'operation';
  const [first, ...rest] = parts;
  return lowerFirstWord(first!) + rest.map(capitalize).join('');
}

/** UpperCamel of an operationId, for the type names derived from it. */
export function typeBaseName(operationId: string): string {
  const camel = methodName(operationId);
  return camel.charAt(0).toUpperCase() + camel.slice(1);
}
