import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { proposeSpecPatch, type DriftEntry, type DriftReport } from '../src/index.ts';

const spec = readFileSync(join(import.meta.dirname, '../../../spec/v1/openapi.yaml'), 'utf8');
const at = '2026-03-04T05:06:07.000Z';

function entry(operation: string, path: string, seenType: string | null, more: Partial<DriftEntry> = {}): DriftEntry {
  return {
    operation,
    side: 'response',
    kind: 'unknown-field',
    path,
    message: 'is not a field the spec lists here',
    count: 2,
    firstSeen: at,
    lastSeen: at,
    example: '',
    seenType,
    ...more,
  };
}

function report(drift: DriftEntry[], values: Record<string, Record<string, Record<string, number>>> = {}): DriftReport {
  const observations = Object.fromEntries(
    Object.entries(values).map(([op, places]) => [
      op,
      {
        answers: 2,
        statuses: {},
        contentTypes: {},
        requestForms: {},
        fields: {},
        values: Object.fromEntries(Object.entries(places).map(([p, counts]) => [p, { unknowns: 'U47', counts }])),
      },
    ]),
  );
  return {
    type: 'gw-drift-report',
    version: 1,
    upstream: 'http://127.0.0.1:1',
    startedAt: at,
    updatedAt: at,
    signaturesChecked: true,
    exchanges: 2,
    unchecked: 0,
    drift,
    observations,
  };
}

describe('proposeSpecPatch', () => {
  it('adds a field once to a schema shared by two operations, follows $ref and array items, and types it as seen', () => {
    const patch = proposeSpecPatch(
      spec,
      report([
        entry('capture', 'capture_orders[].fee', 'number'),
        entry('query', 'orders_list[].wallet', 'object'),
        entry('capture', 'capture_orders[].fee', 'number', { count: 1 }),
      ]),
    );
    expect(patch.changes.map((c) => `${c.operation} ${c.schema} ${c.path} ${c.value}`)).toEqual([
      'capture CaptureOrderResult capture_orders[].fee number',
      'query QueriedOrder orders_list[].wallet object',
    ]);
    const doc = parse(patch.text);
    expect(doc.components.schemas.CaptureOrderResult.properties.fee).toMatchObject({
      type: 'number',
      description: expect.stringContaining('Proposed by gw spec drift --patch'),
    });
    expect(doc.components.schemas.QueriedOrder.properties.wallet).toMatchObject({ type: 'object' });
  });

  it('adds new known values (not empty, not card-shaped ones), and leaves every other kind and request drift to a person', () => {
    const drift = [
      entry('capture', 'settlement_window', null),
      entry('capture', 'capture_orders[].amount', null, { kind: 'missing-field' }),
      entry('authoriseCard', 'card_copy', 'string', { side: 'request' }),
      entry('capture', 'return_status', 'string'),
      entry('capture', 'nowhere.deeper', 'string'),
    ];
    const patch = proposeSpecPatch(spec, report(drift, { capture: { 'capture_orders[].capture_status': { '1': 3, '5': 1, '': 2, '9999999999999999': 1 } } }));
    expect(patch.changes.map((c) => `${c.kind} ${c.path} ${c.value}`)).toEqual(['known-value capture_orders[].capture_status 5']);
    expect(parse(patch.text).components.schemas.CaptureOrderResult.properties.capture_status['x-gw-known-values']).toEqual(['1', '0', '5']);
    expect(patch.skipped.map((s) => `${s.kind} ${s.path}: ${s.reason}`)).toEqual([
      'unknown-field settlement_window: no value was seen to give it a type',
      "missing-field capture_orders[].amount: missing-field needs a person's judgement",
      'unknown-field card_copy: request drift says what a caller sent, not what the gateway does',
      'unknown-field return_status: the spec already lists a member of that name here',
      'unknown-field nowhere.deeper: the spec has no object at nowhere to add it to',
    ]);
  });

  it('proposes nothing from throttles: rate limits are an open point (UNKNOWNS U50), not the shape of an answer', () => {
    const throttled = report([]);
    const throttles = {
      count: 3,
      statuses: { '429': 3 },
      firstSeen: at,
      lastSeen: at,
      retryAfterMs: { count: 3, min: 2000, max: 2000, values: { '2000': 3 }, absent: 0, unreadable: 0 },
      requestsInSecondBefore: { operation: { min: 1, max: 3 }, all: { min: 1, max: 3 } },
    };
    throttled.observations.capture = { answers: 0, statuses: { '429': 3 }, contentTypes: {}, requestForms: {}, fields: {}, values: {}, throttles };
    const patch = proposeSpecPatch(spec, throttled);
    expect(patch.text).toBe(spec);
    expect(patch.changes).toEqual([]);
    expect(patch.skipped).toEqual([]);
  });

  it('changes nothing when the report has nothing to propose', () => {
    const patch = proposeSpecPatch(spec, report([], { capture: { 'capture_orders[].capture_status': { '1': 3 } } }));
    expect(patch.text).toBe(spec);
    expect(patch.changes).toEqual([]);
  });
});
