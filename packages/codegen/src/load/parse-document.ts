import { load as loadStrict } from 'js-yaml';
import { load as loadLenient } from 'js-yaml-lenient';
import type { Diagnostic } from '../ir/types.js';

export class SpecLoadError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
    this.name = 'SpecLoadError';
  }
}

interface YamlMark {
  line: number;
  column: number;
}

function markOf(error: unknown): YamlMark | undefined {
  const mark = (error as { mark?: YamlMark }).mark;
  return mark && typeof mark.line === 'number' ? mark : undefined;
}

export interface ParsedDocument {
  value: unknown;
  diagnostics: Diagnostic[];
}

/**
 * Parses a JSON or YAML text.
 *
 * Published files sometimes contain YAML that strict parsers (js-yaml 5, and so Redocly)
 * refuse while older ones accept it, such as a multi-line quoted string with deficient
 * indentation. Users cannot fix upstream files, so we retry with the tolerant parser and
 * report a warning naming the line instead of failing.
 */
export function parseDocument(text: string, file: string): ParsedDocument {
  if (/^\s*[{[]/.test(text)) {
    try {
      return { value: JSON.parse(text), diagnostics: [] };
    } catch {
      // Not JSON after all: YAML is a superset, let the YAML parser report the problem.
    }
  }
  try {
    return { value: loadStrict(text, { filename: file }), diagnostics: [] };
  } catch (strictError) {
    const mark = markOf(strictError);
    const reason = (strictError as Error).message.split('\n')[0] ?? 'invalid YAML';
    let value: unknown;
    try {
      value = loadLenient(text, { filename: file });
    } catch (lenientError) {
      const lenientMark = markOf(lenientError) ?? mark;
      throw new SpecLoadError(
        `${file}${lenientMark ? `:${lenientMark.line + 1}:${lenientMark.column + 1}` : ''}: ${reason}`,
        file,
        lenientMark ? lenientMark.line + 1 : undefined,
        lenientMark ? lenientMark.column + 1 : undefined,
      );
    }
    const where = mark ? `line ${mark.line + 1}, column ${mark.column + 1}` : 'an unknown line';
    return {
      value,
      diagnostics: [
        {
          severity: 'warning',
          code: 'yaml-tolerated',
          pointer: '#',
          message: `${file}: strict YAML parsing failed at ${where} (${reason}); loaded with the tolerant parser. Fix the file upstream when you can.`,
        },
      ],
    };
  }
}
