// Orders for a capture (or refund, query) batch: card payments authorised through a client, so a gateway holds them.

/** A card payment as `authoriseCard` takes it. */
export interface CardPayment {
  order_no: string;
  currency: string;
  amount: string;
  card: string;
  expiration_month: string;
  expiration_year: string;
  security_code: string;
  notify_url?: string;
}

/** What authorising needs of a client: `authoriseCard`, answering with the payment's transaction id. */
export interface AuthorisingClient {
  authoriseCard(record: CardPayment): Promise<{ transaction_id?: string | undefined }>;
}

/** Which orders to authorise: order numbers `<prefix>-<pid>-<call>-<i>`, `amount` USD (10.00), card fields to change. */
export interface AuthoriseOptions {
  readonly prefix: string;
  readonly amount?: string;
  readonly card?: Partial<Pick<CardPayment, 'card' | 'expiration_month' | 'expiration_year' | 'security_code' | 'notify_url'>>;
}

/** An authorised payment as a capture order names it. */
export interface CaptureOrder {
  readonly transaction_id: string;
  readonly order_no: string;
  readonly currency: string;
  readonly amount: string;
}

/** How many payments are authorised at once. */
const AT_ONCE = 32;

let calls = 0;

/** Authorises `count` card payments (the approved test card unless `card` says otherwise) and returns them as capture orders, in order. */
export async function authoriseOrders(client: AuthorisingClient, count: number, options: AuthoriseOptions): Promise<CaptureOrder[]> {
  const amount = options.amount ?? '10.00';
  const call = ++calls;
  const orders: CaptureOrder[] = [];
  const authorise = async (i: number): Promise<void> => {
    const order_no = `${options.prefix}-${process.pid}-${call}-${i}`;
    const card = { card: '4111111111111111', expiration_month: '12', expiration_year: '2030', security_code: '123', ...options.card };
    const paid = await client.authoriseCard({ order_no, currency: 'USD', amount, ...card });
    if (!paid.transaction_id) throw new Error(`${order_no} was not authorised`);
    orders[i] = { transaction_id: paid.transaction_id, order_no, currency: 'USD', amount };
  };
  for (let i = 0; i < count; i += AT_ONCE) await Promise.all(Array.from({ length: Math.min(AT_ONCE, count - i) }, (_, k) => authorise(i + k)));
  return orders;
}

/** The header line of an orders file. */
export const ORDERS_CSV_HEADER = 'transaction_id,order_no,currency,amount';

/** Capture orders as an orders file's text (a header line, then a line each). */
export function ordersCsv(orders: readonly CaptureOrder[]): string {
  return `${[ORDERS_CSV_HEADER, ...orders.map((o) => `${o.transaction_id},${o.order_no},${o.currency},${o.amount}`)].join('\n')}\n`;
}
