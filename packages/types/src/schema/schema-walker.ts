// The one reader of the spec's JSON Schemas: how a `$ref` is followed and what an object schema's members are, for
// every package (the generated `specSchemas` at run time, the OpenAPI document in codegen). It imports nothing
// generated, so codegen can use it while it generates the rest of @gw/types (subpath `@gw/types/schema`).

/** A node of the spec's JSON Schemas. */
export type SchemaNode = Readonly<Record<string, any>>;

const EMPTY: SchemaNode = Object.freeze({});
/** Longest `$ref` chain followed: the spec's are one or two long; a cycle of references stops here. */
const MAX_REF_HOPS = 32;
/** Deepest `allOf` / `anyOf` nesting read for members. */
const MAX_COMPOSITION_DEPTH = 16;

/**
 * Reads a set of component schemas whose `$ref`s are `<refPrefix><name>`. What it reads from a node is kept per
 * walker, for the node (the schemas never change while it runs), so a request path asks each node once.
 */
export class SchemaWalker {
  readonly #defs: Readonly<Record<string, SchemaNode>>;
  readonly #prefix: string;
  readonly #resolved = new WeakMap<SchemaNode, SchemaNode>();
  readonly #members = new WeakMap<SchemaNode, Readonly<Record<string, SchemaNode>>>();

  constructor(defs: Readonly<Record<string, SchemaNode>>, refPrefix: string) {
    this.#defs = defs;
    this.#prefix = refPrefix;
  }

  /** The component schema called `name`, or undefined. */
  named(name: string): SchemaNode | undefined {
    return Object.hasOwn(this.#defs, name) ? this.#defs[name] : undefined;
  }

  /** The name a node's `$ref` points to, or null when it has none. */
  refName(node: SchemaNode): string | null {
    const ref: unknown = node.$ref;
    if (typeof ref !== 'string') return null;
    return ref.startsWith(this.#prefix) ? ref.slice(this.#prefix.length) : (ref.split('/').pop() ?? '');
  }

  /** The node and each schema its `$ref` chain goes through, in order (a dangling reference ends it). */
  chain(node: SchemaNode): SchemaNode[] {
    const out = [node];
    let current = node;
    for (let hops = 0; hops < MAX_REF_HOPS; hops++) {
      const name = this.refName(current);
      const target = name === null ? undefined : this.named(name);
      if (!target) break;
      out.push((current = target));
    }
    return out;
  }

  /** The node a `$ref` chain ends at (the node itself without one); an empty schema for none or a dangling reference. */
  resolve(node: SchemaNode | undefined): SchemaNode {
    if (!node) return EMPTY;
    let resolved = this.#resolved.get(node);
    if (!resolved) {
      const chain = this.chain(node);
      const last = chain[chain.length - 1]!;
      resolved = this.refName(last) === null ? last : EMPTY;
      this.#resolved.set(node, resolved);
    }
    return resolved;
  }

  /** Every node `roots` stand for: themselves and, iteratively, every `$ref`, `allOf`, `anyOf` and `oneOf` target. */
  expand(roots: readonly SchemaNode[]): SchemaNode[] {
    return expandSchemaNodes(roots, {
      ref: (node) => {
        const name = this.refName(node);
        return name === null ? undefined : (this.named(name) ?? EMPTY);
      },
      parts: (node) => (['allOf', 'anyOf', 'oneOf'] as const).flatMap((key) => (Array.isArray(node[key]) ? (node[key] as SchemaNode[]) : [])),
    });
  }

  /** The schemas an object schema is made of, resolved: itself, each `allOf` part, the first `anyOf` / `oneOf` branch, nested. */
  composedOf(node: SchemaNode | undefined): SchemaNode[] {
    const parts: SchemaNode[] = [];
    const visit = (part: SchemaNode, depth: number): void => {
      if (depth > MAX_COMPOSITION_DEPTH) return;
      const s = this.resolve(part);
      parts.push(s);
      for (const sub of (s.allOf ?? []) as SchemaNode[]) visit(sub, depth + 1);
      const branch = ((s.anyOf ?? s.oneOf) as SchemaNode[] | undefined)?.[0];
      if (branch) visit(branch, depth + 1);
    };
    visit(this.resolve(node), 0);
    return parts;
  }

  /** The members of an object schema, from the schemas it is made of (`composedOf`; a later part's member wins). */
  membersOf(node: SchemaNode | undefined): Readonly<Record<string, SchemaNode>> {
    const target = this.resolve(node);
    let members = this.#members.get(target);
    if (!members) {
      members = Object.assign({}, ...this.composedOf(target).map((s) => (s.properties ?? {}) as Record<string, SchemaNode>)) as Record<string, SchemaNode>;
      this.#members.set(target, members);
    }
    return members;
  }

  /** The member names an object schema requires, from the schemas it is made of. */
  requiredOf(node: SchemaNode | undefined): string[] {
    return [...new Set(this.composedOf(node).flatMap((s) => (s.required ?? []) as string[]))];
  }

  /** A schema's type (the first that is not `null`), or `object` for a schema with members and no type. */
  typeOf(node: SchemaNode | undefined): string | undefined {
    const s = this.resolve(node);
    const type: unknown = Array.isArray(s.type) ? (s.type as unknown[]).find((t) => t !== 'null') : s.type;
    if (typeof type === 'string') return type;
    return s.properties || s.allOf || s.anyOf || s.oneOf ? 'object' : undefined;
  }
}

/** How a walk reads the schema nodes of one representation: plain JSON here, a YAML document's nodes where a patch edits one. */
export interface SchemaNodeReader<N> {
  /** The node a node's `$ref` names (undefined without one). */
  ref(node: N): N | undefined;
  /** The node's `allOf`, `anyOf` and `oneOf` members. */
  parts(node: N): readonly N[];
}

/**
 * Every node `roots` stand for, in breadth-first order (themselves first): each `$ref` target and composition member,
 * each node once; at most `limit` nodes. The one walk of composition, over any representation of the schemas.
 */
export function expandSchemaNodes<N>(roots: readonly N[], reader: SchemaNodeReader<N>, limit = Number.POSITIVE_INFINITY): N[] {
  const out: N[] = [];
  const seen = new Set<N>();
  const queue = [...roots];
  for (let next = 0; next < queue.length && out.length < limit; next++) {
    const node = queue[next]!;
    if (node === null || node === undefined || seen.has(node)) continue;
    seen.add(node);
    out.push(node);
    const target = reader.ref(node);
    if (target !== undefined) queue.push(target);
    queue.push(...reader.parts(node));
  }
  return out;
}
