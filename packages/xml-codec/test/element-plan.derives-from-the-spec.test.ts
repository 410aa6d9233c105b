import { operations } from '@gw/types';
import { describe, expect, it } from 'vitest';
import { buildRecordPlan } from '../src/element-plan.ts';

describe('buildRecordPlan', () => {
  it('walks the spec schema: CardRespon has a number risk_score, a nested risk_reasons that may be empty, and text elsewhere', () => {
    const plan = buildRecordPlan(operations.authoriseCard.responseSchema);
    expect(plan.children.get('risk_score')).toEqual({ kind: 'number', integer: false });
    const reasons = plan.children.get('risk_reasons');
    expect(reasons).toMatchObject({ kind: 'record', emptyAsText: true });
    expect(reasons?.kind === 'record' && [...reasons.children.keys()]).toEqual(['name', 'status']);
    const kinds = new Set([...plan.children].filter(([name]) => name !== 'risk_score' && name !== 'risk_reasons').map(([, child]) => child.kind));
    expect(kinds).toEqual(new Set(['text']));
  });

  it('gives the alternative respon issuer_url and the cancel-subscription request its five fields', () => {
    expect([...buildRecordPlan(operations.authoriseAlternative.responseSchema).children.keys()]).toContain('issuer_url');
    expect([...buildRecordPlan(operations.cancelSubscription.requestSchema).children.keys()]).toEqual([
      'merchant_id',
      'account_id',
      'recurring_id',
      'contract_name',
      'encryption_data',
    ]);
  });

  it('fails loudly for a schema the spec lacks or one with no XML shape (arrays)', () => {
    expect(() => buildRecordPlan('NoSuchSchema')).toThrow(/no schema NoSuchSchema/);
    expect(() => buildRecordPlan(operations.capture.requestSchema)).toThrow(/unsupported schema type "array"/);
  });
});
