import type { Command } from 'commander';
import { GW_ERROR_CODES, GwError } from '@gw/types';
import type { CliIo } from '../io.ts';
import { say, table } from '../output.ts';

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

/** Calls the sandbox's control API; a sandbox without it (404) or any other failure is said plainly. */
async function control(base: string, path: string, method: 'GET' | 'POST'): Promise<unknown> {
  const url = `${base.replace(/\/+$/, '')}${path}`;
  let response: Response;
  try {
    response = await fetch(url, { method, headers: { accept: 'application/json' } });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    throw new GwError(GW_ERROR_CODES.http, `the sandbox at ${base} cannot be reached: ${cause}`, { url });
  }
  const text = await response.text();
  if (response.status === 404 && !text.includes('"id"')) {
    throw new GwError(GW_ERROR_CODES.http, `${method} ${path} answered 404: this sandbox has no control API (a sandbox with /sandbox/api/ is needed), or there is no such notification`, { url, status: 404 });
  }
  if (!response.ok) throw new GwError(GW_ERROR_CODES.http, `${method} ${path} answered HTTP ${response.status}: ${text.slice(0, 200)}`, { url, status: response.status });
  try {
    return JSON.parse(text);
  } catch {
    throw new GwError(GW_ERROR_CODES.decode, `${method} ${path} did not answer JSON`, { url });
  }
}

function deliveries(value: unknown): DeliveryView[] {
  const list = Array.isArray(value) ? value : ((value as { notifications?: unknown; items?: unknown } | null)?.notifications ?? (value as { items?: unknown } | null)?.items);
  if (!Array.isArray(list)) throw new GwError(GW_ERROR_CODES.decode, 'the control API answered no list of notifications', {});
  return list as DeliveryView[];
}

function row(d: DeliveryView): (string | number)[] {
  const last = d.attempts?.at(-1);
  const lastText = last ? (last.status ?? last.error ?? '') : 'not yet';
  return [d.id, d.eventKind ?? '', d.eventId ?? '', d.delivered ? 'yes' : 'no', d.attempts?.length ?? 0, String(lastText), d.resendOf ?? '', d.url ?? ''];
}

/** `gw notifications list|resend`: the sandbox's notification log and resends, through its control API. */
export function registerNotifications(program: Command, io: CliIo): void {
  const group = program.command('notifications').description("the sandbox's notifications, through its control API (/sandbox/api/notifications)");
  group
    .command('list')
    .description('every delivery: event kind and id, delivered, attempts, last status')
    .option('--sandbox-url <url>', 'the running sandbox', 'http://127.0.0.1:8787')
    .option('--json', 'print the control API answer as JSON')
    .action(async (flags: { sandboxUrl: string; json?: boolean }) => {
      const answer = await control(flags.sandboxUrl, CONTROL, 'GET');
      const list = deliveries(answer);
      if (flags.json) return say(io, JSON.stringify(answer, null, 2));
      say(io, table(io, ['delivery', 'kind', 'event id', 'delivered', 'attempts', 'last', 'resend of', 'url'], list.map(row)));
    });
  group
    .command('resend')
    .description('deliver a notification again, with the same event id (your receiver de-duplicates it)')
    .argument('<id>', 'delivery id')
    .option('--sandbox-url <url>', 'the running sandbox', 'http://127.0.0.1:8787')
    .action(async (id: string, flags: { sandboxUrl: string }) => {
      const answer = (await control(flags.sandboxUrl, `${CONTROL}/${encodeURIComponent(id)}/resend`, 'POST')) as DeliveryView | { delivery?: DeliveryView };
      const delivery = ('delivery' in answer && answer.delivery ? answer.delivery : answer) as DeliveryView;
      say(io, `resent delivery ${id} as delivery ${String(delivery.id)} (event ${delivery.eventId ?? '?'}, same id: the receiver acknowledges it without running its handler again)`);
    });
}
