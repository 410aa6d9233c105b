// The orders a capture bench needs: card payments authorised through the client, 64 at a time.

/** What a bench's setup client must answer: an authorised card payment's transaction id. */
export interface AuthorisingClient {
  authoriseCard(record: object): Promise<{ transaction_id?: string }>;
}

/** A capture order: the authorised payment to capture, in full. */
export interface CaptureOrder {
  transaction_id: string;
  order_no: string;
  currency: string;
  amount: string;
}

/** Authorises `count` card payments (order numbers `<prefix>-<i>`, 10.00 USD) and returns them as capture orders. */
export async function authoriseOrders(setup: AuthorisingClient, count: number, prefix: string): Promise<CaptureOrder[]> {
  const orders: CaptureOrder[] = [];
  for (let i = 0; i < count; i += 64) {
    await Promise.all(Array.from({ length: Math.min(64, count - i) }, async (_, k) => {
      const order_no = `${prefix}-${i + k}`;
      const respon = await setup.authoriseCard({ order_no, currency: 'USD', amount: '10.00', card: '4111111111111111', expiration_month: '12', expiration_year: '2030', security_code: '123' });
      orders[i + k] = { transaction_id: respon.transaction_id!, order_no, currency: 'USD', amount: '10.00' };
    }));
  }
  return orders;
}
