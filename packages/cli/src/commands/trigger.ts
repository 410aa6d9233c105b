import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import { DECLINE_CENTS, TEST_CARDS } from '@gw/sandbox';
import { GW_ERROR_CODES, GwError } from '@gw/types';
import { requireGateway } from '../config.ts';
import { clientFor, gatewayConfig, type GatewayFlags } from '../gateway.ts';
import type { CliIo } from '../io.ts';
import { say } from '../output.ts';
import { control, controlTokenFrom } from './sandbox-control.ts';
import { CHANGES } from './trigger-changes.ts';
import type { CommandContext } from './command-context.ts';

/** Kinds `trigger` can cause with a direct request, and the request that does. */
const DIRECT: Record<string, (notifyUrl: string) => { operation: 'authoriseCard' | 'payout'; record: Record<string, unknown> }> = {
  'payment.authorised': (notifyUrl) => ({ operation: 'authoriseCard', record: card(TEST_CARDS.approved, notifyUrl) }),
  'payment.declined': (notifyUrl) => ({ operation: 'authoriseCard', record: card(TEST_CARDS.declined, notifyUrl) }),
  'payout.completed': (notifyUrl) => ({ operation: 'payout', record: payout('1.00', notifyUrl) }),
  // The sandbox fails a payout whose amount ends in the decline cents (.05).
  'payout.failed': (notifyUrl) => ({ operation: 'payout', record: payout(`1.${DECLINE_CENTS}`, notifyUrl) }),
};

function payout(amount: string, notifyUrl: string): Record<string, unknown> {
  return { request_id: randomUUID(), payment_amount: amount, payment_currency: 'USD', notify_url: notifyUrl };
}

function card(number: string, notifyUrl: string): Record<string, unknown> {
  return {
    order_no: `TRIGGER-${Date.now()}-${randomUUID().slice(0, 8)}`,
    currency: 'USD',
    amount: '10.00',
    card: number,
    expiration_month: '12',
    expiration_year: '2030',
    security_code: '123',
    notify_url: notifyUrl,
  };
}

/** Kinds that need a pending redirect payment settled by an operator, and the control API action that settles it. */
const SETTLED: Record<string, 'cancel' | 'expire'> = { 'payment.cancelled': 'cancel', 'payment.expired': 'expire' };

/** Creates a pending alternative-method payment, then settles it through the sandbox's control API; returns its transaction id. */
async function settledRedirectPayment(
  io: CliIo,
  flags: GatewayFlags & { notifyUrl: string; controlTokenEnv?: string },
  action: 'cancel' | 'expire',
): Promise<string> {
  const config = gatewayConfig(io, flags);
  const client = await clientFor(io, config);
  let transactionId: string;
  try {
    const order_no = `TRIGGER-${Date.now()}-${randomUUID().slice(0, 8)}`;
    await client.authoriseAlternative({ order_no, currency: 'BRL', amount: '10.00', payment_method: 'PIX', notify_url: flags.notifyUrl });
    // The alternative-method answer carries issuer_url, not the transaction id: the query gives it.
    const found = (await client.query({ order_no })).orders_list?.[0] as { transaction_id?: string } | undefined;
    if (!found?.transaction_id) throw new GwError(GW_ERROR_CODES.decode, `the query of ${order_no} answered no transaction_id`, { order_no });
    transactionId = found.transaction_id;
  } finally {
    await client.close();
  }
  await control(
    requireGateway(config).baseUrl,
    `/sandbox/api/orders/${encodeURIComponent(transactionId)}/actions/${action}`,
    'POST',
    undefined,
    controlTokenFrom(io.env, flags.controlTokenEnv),
  );
  return transactionId;
}

const KINDS = [...Object.keys(DIRECT), ...Object.keys(SETTLED), ...Object.keys(CHANGES)];

/** Runs the operations of a change kind (an approved payment, then the change) through @gw/client. */
async function triggerChange(io: CliIo, flags: GatewayFlags & { notifyUrl: string }, change: (typeof CHANGES)[string]): Promise<string> {
  const client = await clientFor(io, gatewayConfig(io, flags));
  try {
    return await change(client, flags.notifyUrl);
  } finally {
    await client.close();
  }
}

/**
 * `gw trigger KIND --notify-url URL`: makes the sandbox send a notification of that kind, by a request that ends in it
 * (a test card payment, a payout, or a payout of a failing amount), for `payment.cancelled` / `payment.expired` by a
 * pending alternative-method payment that the sandbox's control API then cancels or expires as an operator would, and
 * for a change (captured, refunded, reviewed, subscription cancelled) by an approved payment and then that change.
 */
export function registerTrigger(program: Command, { io, withGatewayOptions }: CommandContext): void {
  withGatewayOptions(
    program
      .command('trigger')
      .description(`make the sandbox send a notification of a kind (${KINDS.join(', ')})`)
      .argument('<kind>', `one of ${KINDS.join(', ')}`)
      .requiredOption('--notify-url <url>', 'where the notification goes (your app, or gw listen)')
      .option('--control-token-env <name>', "a locked sandbox's control token, from this environment variable (for the kinds the control API settles)"),
  ).action(async (kind: string, flags: GatewayFlags & { notifyUrl: string; controlTokenEnv?: string }) => {
    const settle = SETTLED[kind];
    if (settle) {
      const transactionId = await settledRedirectPayment(io, flags, settle);
      say(
        io,
        `authoriseAlternative sent, then ${settle} through the control API: transaction ${transactionId}; the sandbox now notifies ${flags.notifyUrl} (${kind})`,
      );
      return;
    }
    const change = Object.hasOwn(CHANGES, kind) ? CHANGES[kind] : undefined;
    if (change) {
      const did = await triggerChange(io, flags, change);
      say(io, `${did}; the sandbox now notifies ${flags.notifyUrl} (payment.authorised, then ${kind})`);
      return;
    }
    const make = DIRECT[kind];
    if (!make) throw new GwError(GW_ERROR_CODES.config, `unknown kind ${kind}; trigger supports ${KINDS.join(', ')}`, { kind });
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
