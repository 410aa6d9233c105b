import { specSchema } from './schema/spec-schema.ts';
import type { SchemaNode } from './schema/schema-walker.ts';

/** What the spec says may appear at one place of a record: the names it lists and the schemas under each. */
export interface FieldShape {
  /** Every member name the spec lists here, with the shapes of its value. */
  readonly members: ReadonlyMap<string, FieldShape>;
  /** The shape of each array item here, or null. */
  readonly items: FieldShape | null;
  /** True when the schema admits any further member (`additionalProperties`), so no name is unknown here. */
  readonly open: boolean;
}

const shapes = new Map<string, FieldShape>();

/** A stable key for a set of schema nodes, so each distinct place is built once (the spec is finite, so this ends). */
function keyOf(nodes: readonly SchemaNode[], ids: Map<SchemaNode, number>): string {
  return nodes
    .map((n) => {
      let id = ids.get(n);
      if (id === undefined) ids.set(n, (id = ids.size));
      return id;
    })
    .sort((a, b) => a - b)
    .join(',');
}

/** The shape of a named component schema (`CaptureRequest`), built once from the spec, without recursion. */
export function shapeOf(schemaName: string): FieldShape {
  const known = shapes.get(schemaName);
  if (known) return known;
  const ids = new Map<SchemaNode, number>();
  const built = new Map<string, { members: Map<string, FieldShape>; items: FieldShape | null; open: boolean }>();
  const pending: { nodes: SchemaNode[]; shape: { members: Map<string, FieldShape>; items: FieldShape | null; open: boolean } }[] = [];
  const make = (roots: readonly SchemaNode[]): FieldShape => {
    const nodes = specSchema.expand(roots);
    const key = keyOf(nodes, ids);
    let shape = built.get(key);
    if (!shape) {
      built.set(key, (shape = { members: new Map(), items: null, open: false }));
      pending.push({ nodes, shape });
    }
    return shape;
  };
  const root = make([specSchema.named(schemaName)!]);
  while (pending.length > 0) {
    const { nodes, shape } = pending.pop()!;
    const byName = new Map<string, SchemaNode[]>();
    const items: SchemaNode[] = [];
    for (const node of nodes) {
      if (node.additionalProperties !== undefined && node.additionalProperties !== false) shape.open = true;
      if (node.properties && typeof node.properties === 'object') {
        for (const [name, child] of Object.entries(node.properties as Record<string, SchemaNode>)) byName.set(name, [...(byName.get(name) ?? []), child]);
      }
      if (node.items && typeof node.items === 'object') items.push(node.items as SchemaNode);
    }
    for (const [name, children] of byName) shape.members.set(name, make(children));
    if (items.length > 0) shape.items = make(items);
  }
  shapes.set(schemaName, root);
  return root;
}
