// Finds places of a spec's component schemas in the YAML document itself (not the generated tables), so a patch
// applies to the spec file it is given, whatever version it is.
import { expandSchemaNodes } from '@gw/types';
import { isMap, isScalar, isSeq, type Document, type YAMLMap, type YAMLSeq } from 'yaml';

/** The spec's records nest a few levels; deeper `$ref` chains are not followed. */
const MAX_EXPANSIONS = 32;

function schemas(doc: Document): YAMLMap | null {
  const node = doc.getIn(['components', 'schemas']);
  return isMap(node) ? node : null;
}

function stringAt(map: YAMLMap, key: string): string | null {
  const value = map.get(key, true);
  return isScalar(value) && typeof value.value === 'string' ? value.value : null;
}

/** A component schema by name, or null. */
export function componentSchema(doc: Document, name: string): YAMLMap | null {
  const node = schemas(doc)?.get(name, true);
  return isMap(node) ? node : null;
}

/** The nodes a schema node stands for: itself, then what its `$ref`, `allOf`, `anyOf`, `oneOf` lead to (the one walk of `@gw/types`, over the YAML's nodes). */
export function expand(doc: Document, root: YAMLMap): YAMLMap[] {
  return expandSchemaNodes<YAMLMap>(
    [root],
    {
      ref: (node) => {
        const ref = stringAt(node, '$ref');
        return (ref?.startsWith('#/components/schemas/') ? componentSchema(doc, ref.slice('#/components/schemas/'.length)) : null) ?? undefined;
      },
      parts: (node) =>
        ['allOf', 'anyOf', 'oneOf'].flatMap((key) => {
          const list = node.get(key, true);
          return isSeq(list) ? list.items.filter((item): item is YAMLMap => isMap(item)) : [];
        }),
    },
    MAX_EXPANSIONS,
  );
}

/** The `properties` maps a schema node stands for, its own first. */
export function propertyMaps(doc: Document, node: YAMLMap): YAMLMap[] {
  return expand(doc, node).flatMap((n) => {
    const properties = n.get('properties', true);
    return isMap(properties) ? [properties] : [];
  });
}

/**
 * The schema node at a folded field path (`capture_orders[].capture_status`) below `root`, following `$ref`s and
 * compositions; `''` is the root itself. Null when the spec has no such place.
 */
export function schemaAt(doc: Document, root: YAMLMap, path: string): YAMLMap | null {
  let node: YAMLMap | null = root;
  for (const segment of path ? path.split('.') : []) {
    const items = /(\[\])+$/.exec(segment)?.[0].length ?? 0;
    const name = segment.slice(0, segment.length - items);
    if (!node) return null;
    const holder: YAMLMap | undefined = propertyMaps(doc, node).find((p) => p.has(name));
    const child: unknown = holder?.get(name, true);
    node = isMap(child) ? child : null;
    for (let i = 0; i < items / 2 && node; i++) {
      const itemsNode: unknown = expand(doc, node)
        .map((n) => n.get('items', true))
        .find((n) => isMap(n));
      node = isMap(itemsNode) ? itemsNode : null;
    }
  }
  return node;
}

/** The `x-gw-known-values` list a place's schema carries (its own, or one its `$ref` leads to), or null. */
export function knownValuesAt(doc: Document, node: YAMLMap): YAMLSeq | null {
  for (const n of expand(doc, node)) {
    const list = n.get('x-gw-known-values', true);
    if (isSeq(list)) return list;
  }
  return null;
}

/** The request or response component schema name of an operation, read from its path's `x-gw-variants`. */
export function operationSchema(doc: Document, operation: string, side: 'request' | 'response'): string | null {
  const paths = doc.get('paths', true);
  if (!isMap(paths)) return null;
  for (const pair of paths.items) {
    const post = isMap(pair.value) ? pair.value.get('post', true) : null;
    const variants = isMap(post) ? post.get('x-gw-variants', true) : null;
    if (!isSeq(variants)) continue;
    for (const variant of variants.items) if (isMap(variant) && stringAt(variant, 'name') === operation) return stringAt(variant, side);
  }
  return null;
}
