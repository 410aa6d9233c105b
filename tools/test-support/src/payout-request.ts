/** A payout a sandbox completes: 250.00 USD by SWIFT to a company beneficiary, under `request_id`. */
export function payoutRequest(request_id: string) {
  return {
    request_id,
    payment_amount: '250.00',
    payment_currency: 'USD',
    source_amount: '250.00',
    source_currency: 'USD',
    fee_paid_by: 'PAYER' as const,
    payment_method: 'SWIFT' as const,
    payment_date: '2026-12-01',
    beneficiary: { first_name: 'Ana', last_name: 'Lee', entity_type: 'COMPANY' as const, bank_details: { account_number: '12345678', swift_code: 'BANKUS33' } },
  };
}
