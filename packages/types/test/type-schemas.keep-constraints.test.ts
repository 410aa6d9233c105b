import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { typeSchemas } from '../src/index.ts';

// The schemas typescript-json-schema derives from the generated types: published for teams' own tools.
// The generator carries the spec's constraints through the types as JSDoc annotations, so these refuse what the
// spec refuses, as the spec-derived validator does.
const ajv = new Ajv({ allErrors: true, strict: false });
ajv.addSchema(typeSchemas, 'types');
const validatorFor = (name: string) => ajv.compile({ $ref: `types#/definitions/${name}` });
const fieldsOf = (validate: ReturnType<typeof validatorFor>, record: unknown) =>
  validate(record) ? [] : [...new Set((validate.errors ?? []).map((e) => e.instancePath))].sort();

describe('type-derived JSON Schemas keep the constraints of the spec', () => {
  const card = validatorFor('CardAuthoriseRequest');
  const capture = validatorFor('CaptureRequest');

  it('refuses 12.345 as an amount, usd as a currency, 2026-1-1 as a birth date and 1.5 as checkout_time', () => {
    expect(fieldsOf(card, { amount: '12.345' })).toEqual(['/amount']);
    expect(fieldsOf(card, { currency: 'usd' })).toEqual(['/currency']);
    expect(fieldsOf(card, { birth_date: '2026-1-1' })).toEqual(['/birth_date']);
    expect(fieldsOf(card, { checkout_time: 1.5 })).toEqual(['/checkout_time']);
    expect(fieldsOf(card, { amount: '12.34', currency: 'USD', birth_date: '01-02-1990', checkout_time: 1700000000 })).toEqual([]);
  });

  it('refuses 51 capture orders', () => {
    const orders = Array.from({ length: 51 }, () => ({ amount: '1.00' }));
    expect(fieldsOf(capture, { capture_orders: orders })).toEqual(['/capture_orders']);
    expect(fieldsOf(capture, { capture_orders: orders.slice(1) })).toEqual([]);
  });

  it('accepts any string for an open set (the `string & {}` idiom is any string)', () => {
    expect(fieldsOf(card, { open3d: 'do3DS' })).toEqual([]);
    expect(fieldsOf(card, { open3d: 'somethingElse' })).toEqual([]);
    expect(fieldsOf(card, { open3d: 3 })).not.toEqual([]);
  });
});
