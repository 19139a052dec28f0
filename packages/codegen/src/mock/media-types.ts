/**
 * Which media types the mock answers in. The mocks make JSON values; the server runtime
 * writes them as JSON, as a form, or as text. So JSON and forms always go, text and bytes
 * only where the schema is a string, and `application/jwt` only when the mock signs its
 * answers (with its published shared secret).
 */
import type { ApiIR } from '../ir/types.js';
import { derefKind } from '../ir/deref-kind.js';

type BodyKind = 'json' | 'jwt' | 'form' | 'multipart' | 'text' | 'binary';

/**
 * For each operation name and status key: the media types the mock can answer in, in the
 * spec's order.
 */
export function sendableTypes(api: ApiIR, bodyKind: (contentType: string) => BodyKind, signs = false): Map<string, Map<string, string[]>> {
  const schemas = new Map(api.schemas.map((s) => [s.name, s.schema]));
  const out = new Map<string, Map<string, string[]>>();
  for (const op of api.operations) {
    const byStatus = new Map<string, string[]>();
    for (const response of op.responses) {
      byStatus.set(
        response.status,
        response.content
          .filter((media) => {
            const kind = bodyKind(media.contentType);
            if (kind === 'json' || kind === 'form') return true;
            if (kind === 'jwt') return signs;
            if (kind === 'text' || kind === 'binary') return media.schema === undefined || derefKind(media.schema, schemas).kind === 'string';
            return false;
          })
          .map((media) => media.contentType),
      );
    }
    out.set(op.name, byStatus);
  }
  return out;
}
