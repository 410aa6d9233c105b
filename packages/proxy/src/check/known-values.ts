// UNKNOWNS U06: enumerated-looking fields are open sets; their known values are the spec's `x-gw-known-values`.
import { specSchema, type SchemaNode } from '@gw/types';

/** The spec's records nest a few levels; deeper places are not looked for. */
const MAX_DEPTH = 8;

function walk(nodes: SchemaNode[], path: string, depth: number, out: Map<string, readonly string[]>): void {
  if (depth > MAX_DEPTH) return;
  for (const node of nodes) {
    const known = node['x-gw-known-values'];
    if (Array.isArray(known) && path) out.set(path, [...(out.get(path) ?? []), ...known.map(String)]);
    if (node.properties && typeof node.properties === 'object') {
      for (const [name, child] of Object.entries(node.properties as Record<string, SchemaNode>))
        walk(specSchema.expand([child]), path ? `${path}.${name}` : name, depth + 1, out);
    }
    if (node.items && typeof node.items === 'object') walk(specSchema.expand([node.items as SchemaNode]), `${path}[]`, depth + 1, out);
  }
}

const cache = new Map<string, ReadonlyMap<string, readonly string[]>>();

/** Every place of a component schema with `x-gw-known-values` (folded paths such as `capture_orders[].capture_status`). */
export function knownValuePlaces(schemaName: string): ReadonlyMap<string, readonly string[]> {
  let places = cache.get(schemaName);
  if (!places) {
    const found = new Map<string, readonly string[]>();
    const root = specSchema.named(schemaName);
    if (root) walk(specSchema.expand([root]), '', 0, found);
    cache.set(schemaName, (places = found));
  }
  return places;
}
