import { describe, expect, it } from 'vitest';
import { redactRecord, redactText } from '../src/index.ts';

describe('redaction', () => {
  it('redacts secret fields by name at any depth, and nothing else', () => {
    const record = {
      card: '4111111111111111',
      order_no: 'O1',
      transaction_id: '4111111111111111',
      nested: [{ security_code: '737', expiration_month: '12', expiration_year: '2031', note: '' }],
      empty: { card: '' },
    };
    expect(redactRecord(record)).toEqual({
      card: '[redacted]',
      order_no: 'O1',
      transaction_id: '4111111111111111',
      nested: [{ security_code: '[redacted]', expiration_month: '[redacted]', expiration_year: '[redacted]', note: '' }],
      empty: { card: '' },
    });
    expect(record.card).toBe('4111111111111111'); // a copy, the caller's record untouched
  });

  it.each([
    ['JSON', '{"card":"4111111111111111","security_code":"737","amount":"1.00"}', '{"card":"[redacted]","security_code":"[redacted]","amount":"1.00"}'],
    [
      'XML',
      '<r><card>4111111111111111</card><security_code>737</security_code><expiration_year>2031</expiration_year></r>',
      '<r><card>[redacted]</card><security_code>[redacted]</security_code><expiration_year>[redacted]</expiration_year></r>',
    ],
    ['form', 'order_no=O1&security_code=737&expiration_month=12', 'order_no=O1&security_code=[redacted]&expiration_month=[redacted]'],
    ['HTML', '<input type=hidden name="security_code" value="737">', '<input type=hidden name="security_code" value="[redacted]">'],
    ['free text', 'card 4111 1111 1111 1111 was declined, ref T2026112300000001', 'card [redacted] was declined, ref T2026112300000001'],
  ])('in %s text', (_kind, text, expected) => {
    expect(redactText(text)).toBe(expected);
  });
});
