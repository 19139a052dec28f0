/**
 * Request headers: the common headers of section 4.1 and how the sources that supply
 * headers (client defaults, per-call values, the operation's parameters) combine.
 */

/**
 * Facts about the customer that section 4.1 asks every request to carry when known.
 *
 * @example
 * const customer: CustomerContext = { authDate: new Date(lastLogin), ipAddress: '198.51.100.7', userAgent: req.headers['user-agent'] };
 */
export interface CustomerContext {
  /** When the customer last authenticated; sent as `x-fapi-auth-date` (an RFC 7231 HTTP date). */
  authDate?: Date | string;
  /** `x-fapi-customer-ip-address`. */
  ipAddress?: string;
  /** `x-customer-user-agent`. */
  userAgent?: string;
}

/** Header values by name; `undefined` leaves a header out. */
export type HeaderValues = Readonly<Record<string, string | number | boolean | undefined>>;

/** Static default headers, or a function called before every request (for values that change). */
export type HeaderSource = HeaderValues | (() => HeaderValues | Promise<HeaderValues>);

/** `x-fapi-auth-date` wants an HTTP date: `Date.toUTCString()` writes exactly that form. */
function httpDate(value: Date | string): string {
  return value instanceof Date ? value.toUTCString() : value;
}

/** The 4.1 headers for a customer (the interaction id and Authorization are added per request). */
export function customerHeaders(customer: CustomerContext | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!customer) return out;
  if (customer.authDate !== undefined) out['x-fapi-auth-date'] = httpDate(customer.authDate);
  if (customer.ipAddress !== undefined) out['x-fapi-customer-ip-address'] = customer.ipAddress;
  if (customer.userAgent !== undefined) out['x-customer-user-agent'] = customer.userAgent;
  return out;
}

export async function resolveHeaderSource(source: HeaderSource | undefined): Promise<HeaderValues> {
  if (source === undefined) return {};
  return typeof source === 'function' ? await source() : source;
}

/**
 * Headers that frame the message on the connection: the transport writes them from the body it
 * sends. A caller's value (a spec may declare `Content-Length` as a header parameter) would
 * contradict the body, and the transport refuses such a request, so it is dropped.
 */
export const TRANSPORT_HEADERS: ReadonlySet<string> = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade']);

/** `headers` without the transport's own (see `TRANSPORT_HEADERS`). */
export function withoutTransportHeaders(headers: Record<string, string>): Record<string, string> {
  for (const name of TRANSPORT_HEADERS) if (name in headers) delete headers[name];
  return headers;
}

/** Merges header sets left to right (later wins), lower-casing names and dropping `undefined`. */
export function mergeHeaders(...sets: Array<HeaderValues | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < sets.length; i++) {
    const set = sets[i];
    if (!set) continue;
    for (const name of Object.keys(set)) {
      const value = set[name];
      if (value === undefined) continue;
      out[name.toLowerCase()] = String(value);
    }
  }
  return out;
}

/** Response headers as a plain object with lower-case names (the validators' key form). */
export function headersToObject(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name.toLowerCase()] = value;
  });
  return out;
}
