/**
 * Whether a value written in the file (a `default`, an `example`) fits the schema it sits on,
 * judged on the IR at generation time. It answers "no" only when it is sure: formats,
 * `multipleOf`, `uniqueItems` and schemas it cannot see through (reference cycles) count as
 * fitting, so a value is never dropped or reported for a reason the validators would not give.
 */
import type { SchemaNode } from './types.js';
import type { SchemaContext } from './schema-to-ir.js';
import { deref } from './deref.js';
import { patternTester } from './pattern-route.js';
import { isRecord } from './json-pointer.js';

/** `true` when it fits (or cannot be judged); otherwise why not, naming the path and the rule. */
export type Fit = true | string;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}

function at(path: string, reason: string): string {
  return path === '' ? reason : `${path}: ${reason}`;
}

export function valueFits(value: unknown, node: SchemaNode, ctx: SchemaContext, path = '', depth = 0): Fit {
  if (depth > 32) return true;
  const target = deref(node, ctx);
  if (!target) return true;
  if (value === null && (target.nullable || node.nullable)) return true;
  switch (target.kind) {
    case 'any':
      return true;
    case 'never':
      return at(path, 'no value is allowed here');
    case 'ref':
      return true;
    case 'null':
      return value === null ? true : at(path, `expected null, got ${describe(value)}`);
    case 'json':
      // The shape is at least as wide as the schema: what does not fit it cannot fit the schema.
      return valueFits(value, target.shape, ctx, path, depth + 1);
    case 'boolean':
      if (typeof value !== 'boolean') return at(path, `expected boolean, got ${describe(value)}`);
      return !target.enum || target.enum.includes(value) ? true : at(path, `must be one of ${JSON.stringify(target.enum)} (enum)`);
    case 'literal':
      return target.values.some((v) => v === value) ? true : at(path, `must be one of ${JSON.stringify(target.values)} (enum/const), got ${describe(value)}`);
    case 'string':
      return stringFits(value, target, path);
    case 'number':
      return numberFits(value, target, path);
    case 'array': {
      if (!Array.isArray(value)) return at(path, `expected array, got ${describe(value)}`);
      if (target.minItems !== undefined && value.length < target.minItems) return at(path, `must have at least ${target.minItems} items (minItems)`);
      if (target.maxItems !== undefined && value.length > target.maxItems) return at(path, `must have at most ${target.maxItems} items (maxItems)`);
      for (const [i, item] of value.entries()) {
        const schema = target.tuple && i < target.tuple.prefix.length ? target.tuple.prefix[i]! : target.items;
        const fit = valueFits(item, schema, ctx, `${path}[${i}]`, depth + 1);
        if (fit !== true) return fit;
      }
      return true;
    }
    case 'object': {
      if (!isRecord(value)) return at(path, `expected object, got ${describe(value)}`);
      for (const property of target.properties) {
        const member = `${path === '' ? '' : `${path}.`}${property.name}`;
        if (!Object.prototype.hasOwnProperty.call(value, property.name)) {
          // readOnly and writeOnly members are required in one direction only (ir/direction.ts).
          if (property.required && !('default' in property.schema) && !oneDirectionOnly(property.schema, ctx)) return at(member, 'is required (required)');
          continue;
        }
        const fit = valueFits(value[property.name], property.schema, ctx, member, depth + 1);
        if (fit !== true) return fit;
      }
      const declared = new Set(target.properties.map((p) => p.name));
      for (const name of target.requiredUndeclared ?? []) {
        if (!Object.prototype.hasOwnProperty.call(value, name)) return at(`${path === '' ? '' : `${path}.`}${name}`, 'is required (required)');
      }
      const extra = Object.keys(value).filter((name) => !declared.has(name));
      if (target.additional === 'forbid' && extra.length > 0) return at(path, `member "${extra[0]}" is not allowed (additionalProperties)`);
      if (typeof target.additional === 'object') {
        for (const name of extra) {
          const fit = valueFits(value[name], target.additional, ctx, `${path === '' ? '' : `${path}.`}${name}`, depth + 1);
          if (fit !== true) return fit;
        }
      }
      const count = Object.keys(value).length;
      if (target.minProperties !== undefined && count < target.minProperties) return at(path, `must have at least ${target.minProperties} members (minProperties)`);
      if (target.maxProperties !== undefined && count > target.maxProperties) return at(path, `must have at most ${target.maxProperties} members (maxProperties)`);
      return true;
    }
    case 'union': {
      const fits = target.variants.map((variant) => valueFits(value, variant, ctx, path, depth + 1));
      const matched = fits.filter((f) => f === true).length;
      // "Exactly one" is left to the validators: the check here only proves a misfit.
      return matched > 0 ? true : at(path, `matches none of the ${target.mode} variants (${fits[0]})`);
    }
    case 'intersection': {
      for (const part of target.parts) {
        const fit = valueFits(value, part, ctx, path, depth + 1);
        if (fit !== true) return fit;
      }
      return true;
    }
  }
}

function stringFits(value: unknown, node: Extract<SchemaNode, { kind: 'string' }>, path: string): Fit {
  if (typeof value !== 'string') return at(path, `expected string, got ${describe(value)}`);
  if (node.enum && !node.enum.includes(value)) return at(path, `must be one of ${JSON.stringify(node.enum)} (enum)`);
  const length = [...value].length;
  if (node.minLength !== undefined && length < node.minLength) return at(path, `must have at least ${node.minLength} characters (minLength)`);
  if (node.maxLength !== undefined && length > node.maxLength) return at(path, `must have at most ${node.maxLength} characters (maxLength)`);
  for (const source of node.patterns ?? []) {
    const pattern = patternTester(source);
    if (pattern && !pattern.test(value)) return at(path, `must match ${source} (pattern)`);
  }
  return true;
}

function numberFits(value: unknown, node: Extract<SchemaNode, { kind: 'number' }>, path: string): Fit {
  if (typeof value !== 'number' || !Number.isFinite(value)) return at(path, `expected ${node.integer ? 'integer' : 'number'}, got ${describe(value)}`);
  if (node.integer && !Number.isInteger(value)) return at(path, `expected integer, got ${value}`);
  if (node.enum && !node.enum.includes(value)) return at(path, `must be one of ${JSON.stringify(node.enum)} (enum)`);
  if (node.minimum !== undefined && value < node.minimum) return at(path, `must be at least ${node.minimum} (minimum)`);
  if (node.maximum !== undefined && value > node.maximum) return at(path, `must be at most ${node.maximum} (maximum)`);
  if (node.exclusiveMinimum !== undefined && value <= node.exclusiveMinimum) return at(path, `must be greater than ${node.exclusiveMinimum} (exclusiveMinimum)`);
  if (node.exclusiveMaximum !== undefined && value >= node.exclusiveMaximum) return at(path, `must be less than ${node.exclusiveMaximum} (exclusiveMaximum)`);
  return true;
}

function oneDirectionOnly(node: SchemaNode, ctx: SchemaContext): boolean {
  const target = deref(node, ctx);
  return node.readOnly === true || node.writeOnly === true || target?.readOnly === true || target?.writeOnly === true;
}
