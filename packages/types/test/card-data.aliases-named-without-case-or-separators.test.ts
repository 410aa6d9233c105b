import { describe, expect, it } from 'vitest';
import { cardDataAliases, isCardDataField, namesCardData, secretFields } from '../src/index.ts';

describe('namesCardData', () => {
  it("names the spec's secret fields and the aliases, whatever their case or separators", () => {
    for (const name of [...secretFields, ...cardDataAliases]) expect(namesCardData(name)).toBe(true);
    for (const name of ['cvv', 'CVV', 'cvc', 'cardNumber', 'card-number', 'CARD_NUMBER', 'pan', 'expiry', 'Security Code', 'expMonth'])
      expect(namesCardData(name)).toBe(true);
    for (const name of ['order_no', 'amount', 'transaction_id', 'panel', 'expires_at', 'card_brand', 'note']) expect(namesCardData(name)).toBe(false);
  });

  it('leaves isCardDataField to the spec: an alias is not a field the spec marks secret', () => {
    expect(isCardDataField('cvv')).toBe(false);
    expect(isCardDataField('security_code')).toBe(true);
  });
});
