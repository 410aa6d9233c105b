import { createClient, type ClientHooks } from '@gw/client';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, type Sandbox } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import type { CliIo } from '../io.ts';
import { paint, say, table } from '../output.ts';
import { demoSteps } from './demo-steps.ts';

/** What `runDemo` runs against. */
export interface DemoOptions {
  /** The sandbox the demo's client talks to (`gw demo` starts an embedded one). */
  readonly sandbox: Sandbox;
  /** Orders in the closing batch capture. */
  readonly orders: number;
  /** Where the sandbox sends payment and payout notifications; none when absent. */
  readonly notifyUrl?: string;
  /** Client hooks (logging, metrics), e.g. to see what an operator's logs would hold. */
  readonly hooks?: ClientHooks;
}

/** Walks every operation through the client against `options.sandbox`, a table per step and a summary; true when every step passed. */
export async function runDemo(io: CliIo, options: DemoOptions): Promise<boolean> {
  const { sandbox } = options;
  const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
  const client = createClient({
    baseUrl: sandbox.url,
    merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId,
    accountId: SANDBOX_DEFAULT_MERCHANT.accountId,
    signer,
    verifier: signer,
    ...(options.hooks ? { hooks: options.hooks } : {}),
  });
  say(
    io,
    `${paint(io, 'bold', 'gw demo')}: embedded sandbox at ${sandbox.url}, merchant ${SANDBOX_DEFAULT_MERCHANT.merchantId} / ${SANDBOX_DEFAULT_MERCHANT.accountId}\n`,
  );
  const summary: (string | number)[][] = [];
  let ok = true;
  const steps = demoSteps({ io, client: client as never, sandbox, orders: options.orders, ...(options.notifyUrl ? { notifyUrl: options.notifyUrl } : {}) });
  for (const [name, body] of steps) {
    const started = performance.now();
    try {
      const rows = await body();
      const ms = Math.round(performance.now() - started);
      say(io, `${paint(io, 'cyan', `== ${name}`)} (${ms} ms)`);
      say(
        io,
        table(
          io,
          ['field', 'value'],
          rows.map(([k, v]) => [k, String(v)]),
        ),
      );
      say(io);
      summary.push([name, paint(io, 'green', 'ok'), ms]);
    } catch (error) {
      summary.push([
        name,
        paint(io, 'red', `failed: ${(error as { code?: string }).code ?? ''} ${(error as Error).message}`),
        Math.round(performance.now() - started),
      ]);
      ok = false;
    }
  }
  say(io, paint(io, 'bold', 'Summary'));
  say(io, table(io, ['step', 'result', 'ms'], summary));
  say(
    io,
    `sandbox: ${sandbox.state.orders.size} orders, ${sandbox.state.requestCount} requests, invariants ${sandbox.state.invariantViolations().length === 0 ? 'hold' : 'BROKEN'}`,
  );
  return ok;
}
