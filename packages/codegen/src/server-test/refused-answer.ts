/**
 * A 500 from a router built on the generated server stubs that refused its own handler's
 * answer: the cause, when the router tells it (its `X-Contract-Violation` header, sent in
 * development: server-stubs `explainResponseErrors`), or where to find it when it does not.
 */
import type { Exchange } from './http.js';
import type { Finding } from './response-checks.js';

const HEADER = 'x-contract-violation';
/** The body text of that 500 in the stubs' error answers. */
const REFUSED = 'The server failed to produce a valid response';

/** The server-error finding of a 500, with the refused answer's cause where it can be told. */
export function serverError(exchange: Exchange, message: string): Finding {
  const told = exchange.headers[HEADER];
  if (told !== undefined) {
    const cause = parse(told);
    if (cause) {
      const [first] = cause.issues;
      const where = first === undefined ? undefined : /^([^:]*): (.*)$/s.exec(first);
      return {
        check: 'server-error',
        message: `${message}: the router refused its handler's answer: ${[cause.message, ...cause.issues].join('; ')}`,
        ...(where ? { pointer: where[1] === '(root)' ? '' : pointerOf(where[1]!), rule: where[2]! } : { rule: cause.message }),
      };
    }
  }
  if (exchange.text.includes(REFUSED)) {
    return {
      check: 'server-error',
      message: `${message}: a router on the generated server stubs refused its handler's answer; the member or status and the rule are in the server's log (onError), or in the X-Contract-Violation header once the server runs with NODE_ENV=development or explainResponseErrors: true`,
    };
  }
  return { check: 'server-error', message };
}

/** The JSON pointer of an issue's dotted path (members named with `/` or `~` escaped, RFC 6901). */
function pointerOf(dotted: string): string {
  return dotted
    .split('.')
    .map((segment) => `/${segment.replace(/~/g, '~0').replace(/\//g, '~1')}`)
    .join('');
}

function parse(text: string): { message: string; issues: string[] } | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null) return undefined;
    const { message, issues } = value as { message?: unknown; issues?: unknown };
    if (typeof message !== 'string') return undefined;
    return { message, issues: Array.isArray(issues) ? issues.filter((i): i is string => typeof i === 'string') : [] };
  } catch {
    return undefined;
  }
}
