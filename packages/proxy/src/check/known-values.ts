// UNKNOWNS U06: enumerated-looking fields are open sets; their known values are the spec's `x-gw-known-values`.
import { specSchemas } from '@gw/types';

type Schema = Record<string, unknown>;
const defs = (specSchemas as { $defs: Record<string, Schema> }).$defs;
/** The spec's records nest a few levels; deeper places are not looked for. */
const MAX_DEPTH = 8;

/** The nodes a schema node stands for: itself and what its `$ref`, `allOf`, `anyOf`, `oneOf` point to. */
function expand(root: Schema): Schema[] {
  const out: Schema[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!node || typeof node !== 'object' || out.includes(node)) continue;
    out.push(node);
    if (typeof node.$ref === 'string') stack.push(defs[node.$ref.split('/').pop() ?? '']!);
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) if (Array.isArray(node[key])) stack.push(...(node[key] as Schema[]));
  }
  return out;
}

function walk(nodes: Schema[], path: string, depth: number, out: Map<string, readonly string[]>): void {
  if (depth > MAX_DEPTH) return;
  for (const node of nodes) {
    const known = node['x-gw-known-values'];
    if (Array.isArray(known) && path) out.set(path, [...(out.get(path) ?? []), ...known.map(String)]);
    if (node.properties && typeof node.properties === 'object') {
      for (const [name, child] of Object.entries(node.properties as Record<string, Schema>)) walk(expand(child), path ? `${path}.${name}` : name, depth + 1, out);
    }
    if (node.items && typeof node.items === 'object') walk(expand(node.items as Schema), `${path}[]`, depth + 1, out);
  }
}

const cache = new Map<string, ReadonlyMap<string, readonly string[]>>();

/** Every place of a component schema with `x-gw-known-values` (folded paths such as `capture_orders[].capture_status`). */
export function knownValuePlaces(schemaName: string): ReadonlyMap<string, readonly string[]> {
  let places = cache.get(schemaName);
  if (!places) {
    const found = new Map<string, readonly string[]>();
    const root = defs[schemaName];
    if (root) walk(expand(root), '', 0, found);
    cache.set(schemaName, (places = found));
  }
  return places;
}
