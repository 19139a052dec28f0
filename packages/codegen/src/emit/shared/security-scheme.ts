/**
 * One security scheme as plain data in generated code: how its credential travels. The
 * server's meta.gen.ts and the client both print it, each with its own string quoting.
 */
import type { SecuritySchemeIR } from '../../ir/types.js';
import { propertyKey } from './names.js';

export interface SchemeEntryOptions {
  /**
   * Also print OpenAPI 3.2's OAuth members where the spec writes them (`deprecated`,
   * `oauth2MetadataUrl`, the `deviceAuthorization` flow). Only the client takes them: the
   * server's `SecuritySchemeMeta` has no room for them, and specs without them print as before.
   */
  oauth?: boolean;
}

/** `deviceAuthorization: { deviceAuthorizationUrl: ..., tokenUrl: ..., scopes: [...] }`, the one flow whose grant the client runs. */
function printDeviceFlow(scheme: SecuritySchemeIR, quote: (text: string) => string): string | undefined {
  const flow = scheme.flows?.['deviceAuthorization'];
  if (!flow) return undefined;
  const members: string[] = [];
  if (flow.deviceAuthorizationUrl !== undefined) members.push(`deviceAuthorizationUrl: ${quote(flow.deviceAuthorizationUrl)}`);
  if (flow.tokenUrl !== undefined) members.push(`tokenUrl: ${quote(flow.tokenUrl)}`);
  members.push(`scopes: [${flow.scopes.map(quote).join(', ')}]`);
  return `deviceAuthorization: { ${members.join(', ')} }`;
}

/** `  name: { type: ..., scheme: ..., in: ..., name: ... },` (`http` schemes in lower case, as they compare). */
export function printSchemeEntry(scheme: SecuritySchemeIR, quote: (text: string) => string, options: SchemeEntryOptions = {}): string {
  const members = [`type: ${quote(scheme.type)}`];
  if (scheme.scheme !== undefined) members.push(`scheme: ${quote(scheme.scheme.toLowerCase())}`);
  if (scheme.in !== undefined) members.push(`in: ${quote(scheme.in)}`);
  if (scheme.parameterName !== undefined) members.push(`name: ${quote(scheme.parameterName)}`);
  let comment = '';
  if (options.oauth) {
    if (scheme.deprecated) {
      members.push('deprecated: true');
      // On the property, so editors strike through `securitySchemes.x` and `credentials: { x }`.
      comment = `  /** @deprecated The spec marks this security scheme as deprecated. */\n`;
    }
    if (scheme.oauth2MetadataUrl !== undefined) members.push(`oauth2MetadataUrl: ${quote(scheme.oauth2MetadataUrl)}`);
    const device = printDeviceFlow(scheme, quote);
    if (device !== undefined) members.push(`flows: { ${device} }`);
  }
  return `${comment}  ${propertyKey(scheme.name)}: { ${members.join(', ')} },`;
}
