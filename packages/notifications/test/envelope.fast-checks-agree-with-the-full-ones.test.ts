import { describe, expect, it } from 'vitest';
import { envelopeProblems, isNotificationEvent } from '../src/index.ts';
import { isEnvelope } from '../src/envelope/check-envelope.ts';
import { isIsoDateTime } from '../src/envelope/iso-date-time.ts';

// What created_at was checked with before the digit check: the pattern, then Date.parse.
const PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;
const byDateParse = (text: string): boolean => PATTERN.test(text) && !Number.isNaN(Date.parse(text));

describe('created_at', () => {
  const years = ['0000', '1900', '2000', '2024', '2026', '9999'];
  const months = ['00', '01', '02', '04', '12', '13', '99'];
  const days = ['00', '01', '28', '29', '30', '31', '32', '99'];
  const times = ['00:00:00', '23:59:59', '24:00:00', '24:00:01', '23:60:00', '23:59:60', '99:99:99'];
  const fractions = ['', '.0', '.123456789', '.1234567890'];
  const zones = ['Z', '-00:00', '+05:30', '+23:59', '+24:00', '+23:60', '-99:99', 'z'];
  const texts: string[] = [];
  for (const y of years) for (const m of months) for (const d of days) for (const time of times) for (const f of fractions) for (const z of zones) texts.push(`${y}-${m}-${d}T${time}${f}${z}`);
  texts.push('yesterday', '', '2026-11-23 17:04:05Z', '2026-11-23T17:04Z', '+002026-11-23T17:04:05Z', '2026-11-23T17:04:05.Z', '２026-11-23T17:04:05Z');
  // Every character of a valid value replaced in turn by others, cut at every length, and with something appended.
  const sample = '2026-11-23T17:04:05.123+05:30';
  for (let i = 0; i < sample.length; i++) {
    for (const c of ['0', '9', '-', ':', 'T', '.', 'Z', '+', 'x', ' ', '\n', '٣']) texts.push(sample.slice(0, i) + c + sample.slice(i + 1));
    texts.push(sample.slice(0, i), `${sample.slice(0, 19)}${'.123456789'.slice(0, i)}Z`);
  }
  texts.push(`${sample}\n`, `${sample}Z`, '2026-11-23T17:04:05Z\n', '2026-11-23T17:04:05+05:3', '2026-11-23T17:04:05+05:300');

  it(`accepts exactly what the pattern and Date.parse accept (${texts.length} texts, every boundary of every field)`, () => {
    const differ = texts.filter((text) => isIsoDateTime(text) !== byDateParse(text));
    expect(differ).toEqual([]);
    // The set has both verdicts in number, including days Date.parse takes past the month's end.
    expect(texts.filter(byDateParse).length).toBeGreaterThan(500);
    expect(texts.filter((text) => !byDateParse(text)).length).toBeGreaterThan(500);
    expect(isIsoDateTime('2026-02-31T00:00:00Z')).toBe(byDateParse('2026-02-31T00:00:00Z'));
  });
});

describe('the envelope check', () => {
  const valid = {
    type: 'gw.notification', version: 1, id: 'evt_0123456789abcdef0123456789abcdef', kind: 'payout.completed',
    created_at: '2026-11-23T17:04:05.123Z', operation: 'payout', data: { order_no: 'P-1' },
  };
  const edits: Record<string, unknown>[] = [
    {}, { type: 'other' }, { version: 2 }, { version: '1' }, { id: '' }, { id: 'x'.repeat(200) }, { id: 'x'.repeat(201) }, { id: 7 },
    { kind: 'payment.authorised' }, { kind: 'payment.refunded' }, { kind: 7 }, { operation: 'capture' }, { operation: 'toString' },
    { operation: 'authoriseCard' }, { operation: 'authoriseCard', kind: 'payment.authorised' }, { operation: 'checkout', kind: 'payment.expired' },
    { created_at: 'yesterday' }, { created_at: '2026-13-01T00:00:00Z' }, { created_at: '2026-11-23T24:00:00Z' }, { created_at: 1 },
    { data: [] }, { data: null }, { data: 'x' }, { type: undefined }, { kind: 'constructor', operation: 'constructor' },
  ];
  const values: unknown[] = [null, [], 'x', 1, Object.create(null), ...edits.map((edit) => ({ ...valid, ...edit }))];

  it.each(values.map((value) => [JSON.stringify(value) ?? String(value), value]))('gives the same verdict as envelopeProblems for %s', (_name, value) => {
    const problems = envelopeProblems(value);
    expect(isEnvelope(value)).toBe(problems.length === 0);
    expect(isNotificationEvent(value)).toBe(problems.length === 0);
  });
});
