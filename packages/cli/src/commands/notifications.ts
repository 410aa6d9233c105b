import type { Command } from 'commander';
import { GW_ERROR_CODES, GwError } from '@gw/types';
import { say, table } from '../output.ts';
import { control, controlTokenFrom } from './sandbox-control.ts';
import type { CommandContext } from './command-context.ts';

/** The part of a delivery these commands show (the control API's `NotificationDelivery`, dates as ISO text). */
interface DeliveryView {
  id: number | string;
  eventId?: string;
  eventKind?: string;
  url?: string;
  delivered?: boolean;
  resendOf?: number | null;
  attempts?: { at?: string; status?: number | null; error?: string | null }[];
}

const CONTROL = '/sandbox/api/notifications';

function deliveries(value: unknown): DeliveryView[] {
  const list = Array.isArray(value)
    ? value
    : ((value as { notifications?: unknown; items?: unknown } | null)?.notifications ?? (value as { items?: unknown } | null)?.items);
  if (!Array.isArray(list)) throw new GwError(GW_ERROR_CODES.decode, 'the control API answered no list of notifications', {});
  return list as DeliveryView[];
}

function row(d: DeliveryView): (string | number)[] {
  const last = d.attempts?.at(-1);
  const lastText = last ? (last.status ?? last.error ?? '') : 'not yet';
  return [d.id, d.eventKind ?? '', d.eventId ?? '', d.delivered ? 'yes' : 'no', d.attempts?.length ?? 0, String(lastText), d.resendOf ?? '', d.url ?? ''];
}

/** `gw notifications list|resend`: the sandbox's notification log and resends, through its control API. */
export function registerNotifications(program: Command, { io }: CommandContext): void {
  const group = program.command('notifications').description("the sandbox's notifications, through its control API (/sandbox/api/notifications)");
  group
    .command('list')
    .description('every delivery: event kind and id, delivered, attempts, last status')
    .option('--sandbox-url <url>', 'the running sandbox', 'http://127.0.0.1:8787')
    .option('--json', 'print the control API answer as JSON')
    .option('--control-token-env <name>', "a locked sandbox's control token, from this environment variable")
    .action(async (flags: { sandboxUrl: string; json?: boolean; controlTokenEnv?: string }) => {
      const answer = await control(flags.sandboxUrl, CONTROL, 'GET', undefined, controlTokenFrom(io.env, flags.controlTokenEnv));
      const list = deliveries(answer);
      if (flags.json) return say(io, JSON.stringify(answer, null, 2));
      say(io, table(io, ['delivery', 'kind', 'event id', 'delivered', 'attempts', 'last', 'resend of', 'url'], list.map(row)));
    });
  group
    .command('resend')
    .description('deliver a notification again, with the same event id (your receiver de-duplicates it)')
    .argument('<id>', 'delivery id')
    .option('--sandbox-url <url>', 'the running sandbox', 'http://127.0.0.1:8787')
    .option('--control-token-env <name>', "a locked sandbox's control token, from this environment variable")
    .action(async (id: string, flags: { sandboxUrl: string; controlTokenEnv?: string }) => {
      const answer = (await control(
        flags.sandboxUrl,
        `${CONTROL}/${encodeURIComponent(id)}/resend`,
        'POST',
        undefined,
        controlTokenFrom(io.env, flags.controlTokenEnv),
      )) as { notification?: DeliveryView };
      const delivery = answer.notification;
      if (!delivery || delivery.id === undefined) throw new GwError(GW_ERROR_CODES.decode, 'the control API answered no notification for the resend', {});
      say(
        io,
        `resent delivery ${id} as new delivery ${String(delivery.id)} of event ${delivery.eventId ?? '?'} (${delivery.eventKind ?? '?'}); same event id: a de-duplicating receiver acknowledges it without running its handler again`,
      );
    });
}
