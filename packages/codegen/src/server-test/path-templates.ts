/**
 * The file's path templates read backwards: which template a URL path (a `Location` header,
 * a self link) names, with the values of its parameters, and which parameter names the items
 * of a collection (`/x` is the collection of `/x/{id}`).
 */
import type { OperationIR } from '../ir/types.js';
import { withoutTrailing } from '@bank-data-sharing/wire';

interface Template {
  readonly path: string;
  readonly names: readonly string[];
  /** Matches the end of a URL path: a link may carry a prefix the file's paths do not. */
  readonly pattern: RegExp;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile(path: string): Template {
  const names: string[] = [];
  const body = path
    .split(/(\{[^}]+\})/)
    .map((piece) => {
      const name = /^\{([^}]+)\}$/.exec(piece)?.[1];
      if (name === undefined) return escape(piece);
      names.push(name);
      return '([^/]+)';
    })
    .join('');
  return { path, names, pattern: new RegExp(`(?:^|/)${body.replace(/^\//, '')}/?$`) };
}

export class PathTemplates {
  private readonly templates: readonly Template[];
  /** Collection path to the parameter of its item path (`/x` → `id` for `/x/{id}`). */
  private readonly items = new Map<string, string[]>();

  constructor(operations: readonly OperationIR[]) {
    const paths = [...new Set(operations.map((op) => op.path))];
    this.templates = paths.map(compile);
    for (const path of paths) {
      const last = /^(.*)\/\{([^}/]+)\}$/.exec(path);
      if (!last) continue;
      const collection = last[1] === '' ? '/' : last[1]!;
      const list = this.items.get(collection) ?? [];
      if (!list.includes(last[2]!)) list.push(last[2]!);
      this.items.set(collection, list);
    }
  }

  /** The parameters of the item paths under `collection` (`/x/{id}` under `/x`). */
  itemParameters(collection: string): readonly string[] {
    return this.items.get(withoutTrailing(collection, '/') || '/') ?? [];
  }

  /**
   * The parameter values a URL path gives, by every template it ends with; when none does
   * (a link to a path the file does not describe), its last segment for the item parameters of
   * `collection`.
   */
  valuesOf(urlPath: string, collection: string): Array<[string, string]> {
    const out: Array<[string, string]> = [];
    const pathname = urlPath.split(/[?#]/)[0]!;
    let matched = false;
    for (const template of this.templates) {
      const match = template.pattern.exec(pathname);
      if (!match) continue;
      matched = true;
      template.names.forEach((name, i) => out.push([name, decode(match[i + 1]!)]));
    }
    if (matched) return out;
    const last = withoutTrailing(pathname, '/').split('/').pop();
    if (!last) return out;
    return this.itemParameters(collection).map((name) => [name, decode(last)]);
  }
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
