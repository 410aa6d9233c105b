import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import { NOTIFICATION_KINDS } from '@gw/notifications';
import { TEST_CARDS } from '@gw/sandbox';
import { GW_ERROR_CODES, GwError } from '@gw/types';
import { clientFor, gatewayConfig, type GatewayFlags } from '../gateway.ts';
import type { CliIo } from '../io.ts';
import { say } from '../output.ts';

/** Kinds `trigger` can cause with a direct request, and the request that does. */
const DIRECT: Record<string, (notifyUrl: string) => { operation: 'authoriseCard' | 'payout'; record: Record<string, unknown> }> = {
  'payment.authorised': (notifyUrl) => ({ operation: 'authoriseCard', record: card(TEST_CARDS.approved, notifyUrl) }),
  'payment.declined': (notifyUrl) => ({ operation: 'authoriseCard', record: card(TEST_CARDS.declined, notifyUrl) }),
  'payout.completed': (notifyUrl) => ({ operation: 'payout', record: { request_id: randomUUID(), payment_amount: '1.00', payment_currency: 'USD', notify_url: notifyUrl } }),
};

function card(number: string, notifyUrl: string): Record<string, unknown> {
  return { order_no: `TRIGGER-${Date.now()}-${randomUUID().slice(0, 8)}`, currency: 'USD', amount: '10.00', card: number, expiration_month: '12', expiration_year: '2030', security_code: '123', notify_url: notifyUrl };
}

/**
 * `gw trigger KIND --notify-url URL`: makes the sandbox send a notification of that kind, by a request that ends in it
 * (a test card payment or a payout). Kinds that need a shopper or an operator on a pending order (cancelled, expired)
 * go through the sandbox's control API, which this build does not have yet: refused with that said.
 */
export function registerTrigger(program: Command, io: CliIo, withGatewayOptions: (c: Command) => Command): void {
  withGatewayOptions(
    program
      .command('trigger')
      .description(`make the sandbox send a notification of a kind (${Object.keys(DIRECT).join(', ')})`)
      .argument('<kind>', `one of ${NOTIFICATION_KINDS.join(', ')}`)
      .requiredOption('--notify-url <url>', 'where the notification goes (your app, or gw listen)'),
  ).action(async (kind: string, flags: GatewayFlags & { notifyUrl: string }) => {
    const make = DIRECT[kind];
    if (!make) {
      const known = (NOTIFICATION_KINDS as readonly string[]).includes(kind);
      const why = known ? `${kind} needs a pending redirect payment settled through the sandbox control API (/sandbox/api/orders/<id>/actions/...), not available in this build` : `unknown kind ${kind}`;
      throw new GwError(GW_ERROR_CODES.config, `${why}; trigger supports ${Object.keys(DIRECT).join(', ')}`, { kind });
    }
    const { operation, record } = make(flags.notifyUrl);
    const client = await clientFor(io, gatewayConfig(io, flags));
    try {
      const result = (await (client[operation] as (r: unknown) => Promise<Record<string, unknown>>)(record)) as Record<string, unknown>;
      say(io, `${operation} sent: transaction ${String(result.transaction_id ?? '')}; the sandbox now notifies ${flags.notifyUrl} (${kind})`);
    } finally {
      await client.close();
    }
  });
}
