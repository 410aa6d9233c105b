import type { Signer } from '@gw/signer-interface';
import type { SandboxNotify } from '../operations/context.ts';
import type { SandboxState } from '../state/state.ts';

/** What works on the sandbox from outside a request: shopper pages, the expiry sweep, the control API. */
export interface SandboxDeps {
  readonly state: SandboxState;
  /** The sandbox's clock. */
  readonly clock: () => Date;
  /** The sandbox-level notification sender (built in server/sandbox-parts.ts). */
  readonly notify: SandboxNotify;
  /** Signs the parameters a shopper page sends to return_url / cancel_url (UNKNOWNS U22). */
  readonly signer: Signer;
  /** How long a redirect payment waits for the shopper before it expires (option `redirectExpiryMs`). */
  readonly redirectExpiryMs: number;
}

/** Default of the `redirectExpiryMs` option: 30 minutes (UNKNOWNS U22). */
export const DEFAULT_REDIRECT_EXPIRY_MS = 30 * 60_000;
