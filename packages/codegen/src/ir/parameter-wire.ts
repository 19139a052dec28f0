/**
 * How one parameter travels (OpenAPI `style`, `explode`, `allowReserved`, `content`), as the
 * runtimes' wire model reads it: one description for the generated operations, the mocks and
 * the reading of a parameter example's `serializedValue`.
 */
import { derefKind, type ComponentLookup } from './deref-kind.js';
import type { ParameterIR, SchemaNode } from './types.js';

export type ParameterShape = 'primitive' | 'array' | 'object';

/** How one parameter travels, as the runtimes' wire model reads it (a `ParameterWire` of @bank-data-sharing/wire). */
export interface ParameterWireIR {
  name: string;
  in: ParameterIR['in'];
  style: string;
  explode: boolean;
  shape: ParameterShape;
  allowReserved?: boolean;
  contentType?: string;
}

type WireFields = Pick<ParameterIR, 'name' | 'in' | 'style' | 'explode' | 'allowReserved' | 'contentType' | 'schema'>;

/** The wire description of one parameter (whether or not the generated operation lists it). */
export function parameterWire(p: WireFields, components: ComponentLookup): ParameterWireIR {
  return {
    name: p.name,
    in: p.in,
    style: p.style,
    explode: p.explode,
    shape: parameterShape(p.schema, components),
    ...(p.allowReserved ? { allowReserved: true } : {}),
    ...(p.contentType !== undefined ? { contentType: p.contentType } : {}),
  };
}

/** The three value shapes OpenAPI's style tables distinguish. */
export function parameterShape(schema: SchemaNode, components: ComponentLookup): ParameterShape {
  const kind = derefKind(schema, components).kind;
  return kind === 'array' ? 'array' : kind === 'object' ? 'object' : 'primitive';
}
