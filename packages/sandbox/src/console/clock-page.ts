import type { ControlDeps } from '../control/control-deps.ts';
import { html } from './html.ts';
import { page } from './layout.ts';

/** The sandbox clock (advance it to expire abandoned payments and charge subscriptions) and reset. */
export function clockPage(deps: ControlDeps, notice: string | null): string {
  const quick = [
    ['3600', '1 hour'],
    ['86400', '1 day'],
    ['2678400', '31 days'],
  ].map(
    ([seconds, label]) =>
      html`<form class="inline" method="post" action="/sandbox/console/clock/advance">
        <input type="hidden" name="seconds" value="${seconds}" /><button type="submit" class="secondary">+ ${label}</button>
      </form> `,
  );
  const content = html`<h1>Clock and reset</h1>
    <dl>
      <dt>Sandbox time (UTC)</dt>
      <dd class="mono">${deps.clock.now().toISOString()}</dd>
      <dt>Advanced by</dt>
      <dd>${Math.round(deps.clock.offsetMs / 1000)} s</dd>
      <dt>Orders</dt>
      <dd>${deps.state.orders.size}</dd>
      <dt>Subscriptions</dt>
      <dd>${deps.state.subscriptions.size}</dd>
      <dt>Notifications</dt>
      <dd>${deps.state.notifications.length}</dd>
    </dl>
    <h2>Advance the clock</h2>
    <p class="muted">Then the sandbox expires pending payments whose time ran out and charges subscriptions that fell due.</p>
    <form class="card" method="post" action="/sandbox/console/clock/advance">
      <label>Seconds<input name="seconds" type="number" min="0" required inputmode="numeric" /></label><button type="submit">Advance</button>
    </form>
    <div>${quick}</div>
    <h2>Reset</h2>
    <p class="muted">Deletes every order, subscription, payout and notification (and the state file's content). The sandbox keeps its address.</p>
    <form class="card" method="post" action="/sandbox/console/reset">
      <label class="check"><input type="checkbox" name="confirm" value="yes" required /> Delete everything</label
      ><button type="submit" class="danger">Reset the sandbox</button>
    </form>`;
  return page('Clock and reset', 'clock', content, notice);
}
