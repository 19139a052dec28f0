/**
 * One security scheme as plain data in generated code: how its credential travels. The
 * server's meta.gen.ts and the client both print it, each with its own string quoting.
 */
import type { SecuritySchemeIR } from '../../ir/types.js';
import { propertyKey } from './names.js';

/** `  name: { type: ..., scheme: ..., in: ..., name: ... },` (`http` schemes in lower case, as they compare). */
export function printSchemeEntry(scheme: SecuritySchemeIR, quote: (text: string) => string): string {
  const members = [`type: ${quote(scheme.type)}`];
  if (scheme.scheme !== undefined) members.push(`scheme: ${quote(scheme.scheme.toLowerCase())}`);
  if (scheme.in !== undefined) members.push(`in: ${quote(scheme.in)}`);
  if (scheme.parameterName !== undefined) members.push(`name: ${quote(scheme.parameterName)}`);
  return `  ${propertyKey(scheme.name)}: { ${members.join(', ')} },`;
}
