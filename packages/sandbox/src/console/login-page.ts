import { html } from './html.ts';
import { page } from './layout.ts';

/** The console's login form, for a sandbox locked with a control token (`wrong`: the last try's token was not it). */
export function loginPage(wrong: boolean): string {
  const notice = wrong ? html`<p class="notice" role="alert">That is not this sandbox's control token.</p>` : html``;
  return page(
    'Log in',
    '',
    html`<h1>This sandbox's console is locked</h1>
      ${notice}
      <p class="muted">Give the control token its operator set (<code>gw sandbox --control-token-env NAME</code>).</p>
      <form class="card" method="post" action="/sandbox/console/login">
        <label>Control token <input type="password" name="token" autocomplete="current-password" required /></label><button type="submit">Log in</button>
      </form>`,
  );
}
