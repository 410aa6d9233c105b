import { describe, expect, it } from 'vitest';
import { envelopeProblems, isNotificationEvent } from '../src/index.ts';
import { isIsoDateTime } from '../src/envelope/iso-date-time.ts';

describe('created_at', () => {
  // [text, accepted]: an ISO 8601 date-time with seconds and a zone, that Date.parse reads.
  const cases: [string, boolean][] = [
    ['2026-11-23T17:04:05Z', true],
    ['2026-11-23T17:04:05.123Z', true],
    ['2026-11-23T17:04:05.123456789+05:30', true],
    ['2026-11-23T17:04:05-00:00', true],
    ['2026-11-23T17:04:05+23:59', true],
    ['0000-01-01T00:00:00Z', true],
    ['9999-12-31T23:59:59.999Z', true],
    ['2024-02-29T00:00:00Z', true],
    ['2026-11-23T24:00:00Z', true], // the end of the day, which Date.parse reads as the next midnight
    ['2026-02-31T00:00:00Z', true], // Date.parse takes any day up to 31 in any month
    ['2026-11-32T00:00:00Z', false],
    ['2026-13-01T00:00:00Z', false],
    ['2026-00-10T00:00:00Z', false],
    ['2026-11-00T00:00:00Z', false],
    ['2026-11-23T24:00:01Z', false],
    ['2026-11-23T23:60:00Z', false],
    ['2026-11-23T23:59:60Z', false],
    ['2026-11-23T17:04:05+24:00', false],
    ['2026-11-23T17:04:05+05:60', false],
    ['2026-11-23T17:04:05', false], // no zone
    ['2026-11-23T17:04Z', false], // no seconds
    ['2026-11-23 17:04:05Z', false],
    ['2026-11-23T17:04:05z', false],
    ['2026-11-23T17:04:05.Z', false],
    ['2026-11-23T17:04:05.1234567890Z', false], // more than nine digits of fraction
    ['2026-11-23T17:04:05+0530', false],
    ['+002026-11-23T17:04:05Z', false], // an expanded year
    ['２026-11-23T17:04:05Z', false], // a fullwidth digit
    ['2026-11-23T17:04:05Z\n', false],
    ['yesterday', false],
    ['', false],
  ];
  it.each(cases)('%j: %s', (text, accepted) => {
    expect(isIsoDateTime(text)).toBe(accepted);
  });

  it('accepts what Date#toISOString writes, for dates spread over the years 0 to 9999', () => {
    const first = Date.parse('0000-01-01T00:00:00Z');
    const span = Date.parse('9999-12-31T23:59:59.999Z') - first;
    const texts = Array.from({ length: 5000 }, (_, i) => new Date(first + Math.floor((span * ((i * 7919) % 5000)) / 4999)).toISOString());
    expect(texts.filter((text) => !isIsoDateTime(text))).toEqual([]);
  });
});

describe('the envelope check', () => {
  const valid = {
    type: 'gw.notification',
    version: 1,
    id: 'evt_0123456789abcdef0123456789abcdef',
    kind: 'payout.completed',
    created_at: '2026-11-23T17:04:05.123Z',
    operation: 'payout',
    data: { order_no: 'P-1' },
  };
  const notObject = ['the body is not a JSON object'];
  const badId = ['id must be a non-empty string of at most 200 characters'];
  const badKind = ['kind is not a known event kind'];
  const badOperation = ['operation is not an operation whose result is notified'];
  const badTime = ['created_at must be an ISO 8601 date-time'];
  const badData = ['data must be an object'];
  // [what, value, every problem expected]
  const cases: [string, unknown, string[]][] = [
    ['a valid envelope', valid, []],
    ['null', null, notObject],
    ['an array', [], notObject],
    ['a string', 'x', notObject],
    ['a number', 1, notObject],
    [
      'an empty object without a prototype',
      Object.create(null),
      [
        'type must be "gw.notification"',
        'version must be 1 (this package reads version 1 only)',
        ...badId,
        ...badKind,
        ...badOperation,
        ...badTime,
        ...badData,
      ],
    ],
    ['another type', { ...valid, type: 'other' }, ['type must be "gw.notification"']],
    ['no type', { ...valid, type: undefined }, ['type must be "gw.notification"']],
    ['version 2', { ...valid, version: 2 }, ['version must be 1 (this package reads version 1 only)']],
    ['version "1"', { ...valid, version: '1' }, ['version must be 1 (this package reads version 1 only)']],
    ['an empty id', { ...valid, id: '' }, badId],
    ['an id of 200 characters', { ...valid, id: 'x'.repeat(200) }, []],
    ['an id of 201 characters', { ...valid, id: 'x'.repeat(201) }, badId],
    ['a numeric id', { ...valid, id: 7 }, badId],
    ['a payment kind on a payout', { ...valid, kind: 'payment.authorised' }, ['kind payment.authorised does not belong to operation payout']],
    ['an unknown kind', { ...valid, kind: 'payment.chargeback' }, badKind],
    ['a numeric kind', { ...valid, kind: 7 }, badKind],
    ['an operation not notified', { ...valid, operation: 'query' }, badOperation],
    ['a capture', { ...valid, operation: 'capture', kind: 'payment.captured' }, []],
    ['a refund', { ...valid, operation: 'refund', kind: 'payment.refunded' }, []],
    ['a cancel', { ...valid, operation: 'cancel', kind: 'payment.cancelled' }, []],
    ['a review', { ...valid, operation: 'review', kind: 'payment.reviewed' }, []],
    ['a subscription cancelled', { ...valid, operation: 'cancelSubscription', kind: 'subscription.cancelled' }, []],
    [
      'a refund kind on a capture',
      { ...valid, operation: 'capture', kind: 'payment.refunded' },
      ['kind payment.refunded does not belong to operation capture'],
    ],
    [
      'a capture kind on a card payment',
      { ...valid, operation: 'authoriseCard', kind: 'payment.captured' },
      ['kind payment.captured does not belong to operation authoriseCard'],
    ],
    ['an inherited member as operation', { ...valid, operation: 'toString' }, badOperation],
    ['a payout kind on a card payment', { ...valid, operation: 'authoriseCard' }, ['kind payout.completed does not belong to operation authoriseCard']],
    ['a card payment', { ...valid, operation: 'authoriseCard', kind: 'payment.authorised' }, []],
    ['an expired checkout', { ...valid, operation: 'checkout', kind: 'payment.expired' }, []],
    ['created_at not a date', { ...valid, created_at: 'yesterday' }, badTime],
    ['created_at in month 13', { ...valid, created_at: '2026-13-01T00:00:00Z' }, badTime],
    ['created_at a number', { ...valid, created_at: 1 }, badTime],
    ['data an array', { ...valid, data: [] }, badData],
    ['data null', { ...valid, data: null }, badData],
    ['data a string', { ...valid, data: 'x' }, badData],
    ['kind and operation "constructor"', { ...valid, kind: 'constructor', operation: 'constructor' }, [...badKind, ...badOperation]],
  ];
  it.each(cases)('%s: %j', (_what, value, problems) => {
    expect(envelopeProblems(value)).toEqual(problems);
    expect(isNotificationEvent(value)).toBe(problems.length === 0);
  });
});
