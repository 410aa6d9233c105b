import { randomUUID } from 'node:crypto';
import { payoutRequest } from '@gw/test-support';
import { decodeCardRespon } from '@gw/xml-codec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/index.ts';
import { cardPayment, send } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

describe('subscription cancellation (XML body)', () => {
  it('makes the subscription Inactived by recurring_id and contract_name, idempotently', async () => {
    const respon = decodeCardRespon(
      (await send(sandbox, 'authoriseCard', cardPayment({ subscription: { contract_name: 'Gold', interval: 'day', interval_count: '30' } }))).text,
    );
    const cancel = { recurring_id: respon.recurring_id, contract_name: 'Gold' };
    const reply = await send(sandbox, 'cancelSubscription', cancel);
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ ...cancel, cancel_status: '1', error_message: '' });
    expect(typeof reply.json.encryption_data).toBe('string');
    expect(sandbox.state.subscriptions.get(respon.recurring_id!)?.status).toBe('Inactived');
    expect((await send(sandbox, 'cancelSubscription', cancel)).json.cancel_status).toBe('1');
    const query = await send(sandbox, 'query', { transaction_id: respon.transaction_id });
    expect(query.json.orders_list[0].subscription_result).toMatchObject({ recurring_id: respon.recurring_id, recurring_status: 'Inactived' });
  });

  it('gives the same recurring_deduction_time and period in the payment answer and in queries', async () => {
    const respon = decodeCardRespon(
      (await send(sandbox, 'authoriseCard', cardPayment({ subscription: { contract_name: 'Silver', interval: 'week', interval_count: '2' } }))).text,
    );
    expect(respon.recurring_deduction_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const query = await send(sandbox, 'query', { transaction_id: respon.transaction_id });
    expect(query.json.orders_list[0].subscription_result).toMatchObject({
      recurring_id: respon.recurring_id,
      recurring_deduction_time: respon.recurring_deduction_time,
      recurring_deduction_period: respon.recurring_deduction_period,
    });
  });

  it('fails for a contract_name that does not belong to the recurring_id', async () => {
    const respon = decodeCardRespon((await send(sandbox, 'authoriseCard', cardPayment({ subscription: { contract_name: 'Gold' } }))).text);
    const reply = await send(sandbox, 'cancelSubscription', { recurring_id: respon.recurring_id, contract_name: 'Silver' });
    expect(reply.json).toMatchObject({ cancel_status: '0', error_message: expect.stringMatching(/^E401:/) });
    expect(sandbox.state.subscriptions.get(respon.recurring_id!)?.status).toBe('1');
  });
});

describe('payout', () => {
  const payoutRecord = payoutRequest;

  it('creates a payout with every 2.8 response field', async () => {
    const reply = await send(sandbox, 'payout', payoutRecord(randomUUID()));
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({
      status: 'COMPLETED',
      amount_beneficiary_receives: 250,
      amount_payer_pays: 250,
      fee_amount: 0,
      fee_currency: 'USD',
      failure_reason: '',
      beneficiary: { first_name: 'Ana', bank_details: { account_number: '12345678', local_clearing_system: 'ACH' } },
    });
    expect(reply.json.short_reference_id).toMatch(/^\d{8}-[A-Z0-9]{6}$/);
    expect(reply.json.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
    expect(reply.json.transaction_id).toMatch(/^P\d{16}$/);
    expect(typeof reply.json.payer_id).toBe('string');
  });

  it('fails a payout whose amount ends in .05 (the test amount), with a failure type and reason, and keeps it', async () => {
    const requestId = randomUUID();
    const reply = await send(sandbox, 'payout', { ...payoutRecord(requestId), payment_amount: '250.05', source_amount: '250.05' });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ status: 'FAILED', failure_type: 'UNKNOWN', failure_reason: expect.stringMatching(/\.05 fails/), request_id: requestId });
    // Read again with the same request_id: the same failed payout, never a second attempt.
    expect((await send(sandbox, 'payout', { ...payoutRecord(requestId), payment_amount: '250.05', source_amount: '250.05' })).json).toMatchObject({
      status: 'FAILED',
      transaction_id: reply.json.transaction_id,
    });
    expect((await send(sandbox, 'payout', { ...payoutRecord(randomUUID()), payment_amount: '250.50' })).json.status).toBe('COMPLETED');
  });

  it('returns the first payout for a repeated request_id with the same parameters, never a second one', async () => {
    const requestId = randomUUID();
    const first = await send(sandbox, 'payout', payoutRecord(requestId));
    const again = await send(sandbox, 'payout', payoutRecord(requestId));
    expect(again.json.transaction_id).toBe(first.json.transaction_id);
    expect(again.json.amount_beneficiary_receives).toBe(250);
    expect(sandbox.state.appliedCounts('payout').get(requestId)).toBe(1);
  });

  // UNKNOWNS U40: like an idempotency key reused with other parameters.
  it('refuses a repeated request_id with other parameters and pays nothing more', async () => {
    const requestId = randomUUID();
    const first = await send(sandbox, 'payout', payoutRecord(requestId));
    const other = await send(sandbox, 'payout', { ...payoutRecord(requestId), payment_amount: '999.00' });
    expect(other.status).toBe(409);
    expect(other.json).toMatchObject({
      return_status: '0',
      return_message: expect.stringMatching(new RegExp(`^E005:request_id ${requestId} was already used for a payout with other parameters`)),
    });
    const nested = await send(sandbox, 'payout', { ...payoutRecord(requestId), beneficiary: { ...payoutRecord(requestId).beneficiary, last_name: 'Other' } });
    expect(nested.status).toBe(409);
    expect(sandbox.state.appliedCounts('payout').get(requestId)).toBe(1);
    // The same parameters in another member order still read the first payout.
    const { beneficiary, request_id, ...rest } = payoutRecord(requestId);
    const { bank_details, ...person } = beneficiary;
    const reordered = await send(sandbox, 'payout', {
      beneficiary: { bank_details: { swift_code: bank_details.swift_code, account_number: bank_details.account_number }, ...person },
      ...rest,
      request_id,
    });
    expect(reordered.status).toBe(200);
    expect(reordered.json.transaction_id).toBe(first.json.transaction_id);
  });
});
