import type { ControlError } from '../control/control-error.ts';
import { html } from './html.ts';
import { page } from './layout.ts';

/** A console page for a refused request: what went wrong, and the way back. */
export function errorPage(error: ControlError): string {
  return page(
    'Error',
    '',
    html`<h1>${error.status === 404 ? 'Not found' : 'Not done'}</h1>
      <p class="notice" role="alert">${error.message}</p>
      <p><a href="/sandbox/console">← Orders</a></p>`,
  );
}
