import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot, seedFieldsBySection, seedPath } from './seed-fields.ts';

const spec = parse(readFileSync(join(repoRoot, 'spec/v1/openapi.yaml'), 'utf8'));
const schemas: Record<string, any> = spec.components.schemas;

/** Every property name reachable from a schema, through $ref, allOf, oneOf, items and nested properties. */
function reachableProperties(name: string): Set<string> {
  const found = new Set<string>();
  const seen = new Set<unknown>();
  const walk = (node: any): void => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (node.$ref) walk(schemas[String(node.$ref).replace('#/components/schemas/', '')]);
    for (const [prop, sub] of Object.entries<any>(node.properties ?? {})) {
      found.add(prop);
      walk(sub);
    }
    for (const key of ['allOf', 'oneOf', 'anyOf'] as const) (node[key] ?? []).forEach(walk);
    if (node.items) walk(node.items);
    if (node.additionalProperties && typeof node.additionalProperties === 'object') walk(node.additionalProperties);
  };
  walk(schemas[name]);
  return found;
}

const placements: Record<string, string[]> = {
  '2.1': ['CardAuthoriseRequest', 'CaptureResponse'],
  '2.2': ['CardAuthoriseRequest'],
  '2.3': ['AlternativeAuthoriseRequest'],
  '2.4': ['CardRespon', 'AlternativeRespon', 'CheckoutFormFields'],
  '2.5': ['QueryResponse'],
  '2.6': ['CaptureRequest', 'CaptureResponse', 'ReviewRequest', 'ReviewResponse', 'CancelRequest', 'CancelResponse', 'RefundRequest', 'RefundResponse'],
  '2.7': ['CancelSubscriptionRequest', 'CancelSubscriptionResponse'],
  '2.8': ['PayoutRequest', 'PayoutResponse'],
};

describe('spec/v1/openapi.yaml against seed section 2', () => {
  const sections = seedFieldsBySection();

  it('reads a plausible number of fields from every subsection of the seed', () => {
    const counts = Object.fromEntries([...sections].map(([s, f]) => [s, f.size]));
    expect(counts).toMatchObject({ '2.1': 5, '2.7': 7 });
    for (const section of ['2.2', '2.3', '2.4', '2.8']) expect(sections.get(section)!.size).toBeGreaterThan(60);
  });

  for (const [section, owners] of Object.entries(placements)) {
    it(`places every field of seed ${section} in ${owners.join(', ')}`, () => {
      const present = new Set(owners.flatMap((o) => [...reachableProperties(o)]));
      const missing = [...sections.get(section)!].filter((field) => !present.has(field));
      expect(missing).toEqual([]);
    });
  }

  it('keeps the field printed as `the service` under its literal wire name', () => {
    for (const owner of ['CardAuthoriseRequest', 'CheckoutRequest', 'AlternativeAuthoriseRequest', 'QueryResponse']) {
      expect(reachableProperties(owner).has('the service')).toBe(true);
    }
  });

  it('types the fields the seed types as numbers and integers accordingly', () => {
    const typeOf = (owner: string, path: string[]): string | undefined => {
      let node: any = schemas[owner];
      for (const part of path) {
        const resolve = (n: any): any => (n?.$ref ? resolve(schemas[String(n.$ref).replace('#/components/schemas/', '')]) : n);
        const find = (n: any): any => {
          n = resolve(n);
          if (n?.properties?.[part]) return n.properties[part];
          if (n?.items) return find(n.items);
          for (const p of n?.allOf ?? []) {
            const f = find(p);
            if (f) return f;
          }
          return undefined;
        };
        node = find(node);
      }
      const resolved = node?.$ref ? schemas[String(node.$ref).replace('#/components/schemas/', '')] : node;
      return resolved?.type;
    };
    expect(typeOf('CardAuthoriseRequest', ['checkout_time'])).toBe('integer');
    expect(typeOf('CardAuthoriseRequest', ['cart_items', 'basic_item_data', 'price', 'amount_usd'])).toBe('number');
    expect(typeOf('CardAuthoriseRequest', ['cart_items'])).toBe('array');
    expect(typeOf('CardAuthoriseRequest', ['subscription', 'billing_cycle'])).toBe('integer');
    expect(typeOf('CardAuthoriseRequest', ['account_owner', 'past_orders_count'])).toBe('number');
    expect(typeOf('PayoutResponse', ['fee_amount'])).toBe('number');
    expect(typeOf('CardRespon', ['risk_score'])).toBe('number');
  });

  it('matches the shared seed beside the clone, when there is one', () => {
    const shared = join(repoRoot, '../shared/seed/000_8338e56ac111cfbc.txt');
    if (!existsSync(shared)) return;
    expect(readFileSync(shared, 'utf8')).toBe(readFileSync(seedPath, 'utf8'));
  });
});
