/**
 * A Redocly CLI plugin with one rule, `super-linear-pattern`: it reports each `pattern` and
 * `patternProperties` key that a backtracking engine matches in super-linear time, with the
 * same analysis and words as the generator's warning (ir/pattern-warning.ts), so that teams
 * who lint their OpenAPI file in CI see it there. In a redocly.yaml:
 *
 *   plugins:
 *     - node_modules/@bank-data-sharing/codegen/dist/redocly-plugin.js
 *   rules:
 *     bank-data-sharing/super-linear-pattern: warn
 */
import { superLinearPatternMessage } from './ir/pattern-warning.js';

interface Location {
  child(path: Array<string | number>): Location;
  key(): Location;
}
interface Context {
  location: Location;
  report(problem: { message: string; location: Location }): void;
}

function SuperLinearPattern() {
  return {
    Schema: {
      enter(schema: unknown, ctx: Context) {
        if (schema === null || typeof schema !== 'object') return;
        const raw = schema as Record<string, unknown>;
        if (typeof raw['pattern'] === 'string') {
          const message = superLinearPatternMessage(raw['pattern']);
          if (message) ctx.report({ message, location: ctx.location.child(['pattern']) });
        }
        const patternProperties = raw['patternProperties'];
        if (patternProperties !== null && typeof patternProperties === 'object' && !Array.isArray(patternProperties)) {
          for (const key of Object.keys(patternProperties)) {
            const message = superLinearPatternMessage(key);
            if (message) ctx.report({ message, location: ctx.location.child(['patternProperties', key]).key() });
          }
        }
      },
    },
  };
}

const rules = { 'super-linear-pattern': SuperLinearPattern };

export default function bankDataSharingPlugin() {
  return { id: 'bank-data-sharing', rules: { oas3: rules, oas2: rules } };
}
