// What a running sandbox is made of, built once from its options: every request step, shopper page and control
// route reads these parts; nothing here is built per request.
import { createHmacSha256Signer, type Signer, type Verifier } from '@gw/signer-interface';
import { RecordValidator } from '@gw/types';
import { AnswerDrift } from '../drift/answer-drift.ts';
import { SandboxClock } from '../state/clock.ts';
import type { SandboxNotify } from '../operations/context.ts';
import type { ControlDeps } from '../control/control-deps.ts';
import { FaultPlan } from '../faults/fault-plan.ts';
import { IdSource } from '../state/ids.ts';
import { DEFAULT_REDIRECT_EXPIRY_MS, type SandboxDeps } from '../lifecycle/deps.ts';
import { Notifier } from '../notifications/notifier.ts';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, type SandboxOptions } from '../options/sandbox-options.ts';
import { SeededRandom } from '../state/random.ts';
import { SandboxState } from '../state/state.ts';
import { SqliteStateStore } from '../store/sqlite-store.ts';
import { MEMORY_KEEPER, type StateKeeper } from '../store/state-keeper.ts';
import { Throttle } from '../throttle/throttle.ts';
import type { BodyLimits } from '../wire/read-body.ts';
import { serverLimits, type ServerLimits } from '@gw/types';
import { normaliseAddress } from './remote-address.ts';

/** The parts of a running sandbox. */
export interface SandboxParts {
  readonly state: SandboxState;
  /** The clock the control API advances. */
  readonly sandboxClock: SandboxClock;
  /** Its current time. */
  readonly clock: () => Date;
  readonly ids: IdSource;
  /** Signs answers, notifications and return parameters. */
  readonly signer: Signer;
  /** Verifies the requests' encryption_data. */
  readonly verifier: Verifier;
  /** merchant_id to account_id of every merchant the sandbox knows. */
  readonly merchants: ReadonlyMap<string, string>;
  /** Addresses registered for the IP allow-listed operations (normalised). */
  readonly allowIps: ReadonlySet<string>;
  readonly limits: ServerLimits;
  readonly bodyLimits: BodyLimits;
  readonly faults: FaultPlan;
  /** The quota per merchant account (option `throttle`): off (`quota` null) unless set. */
  readonly throttle: Throttle;
  readonly drift: AnswerDrift;
  readonly notifier: Notifier;
  /** The state file, when there is one. */
  readonly store: SqliteStateStore | null;
  /** Where changes are kept: the state file, or memory. */
  readonly keeper: StateKeeper;
  readonly validator: RecordValidator;
  readonly validation: { readonly unknownFields: 'allow' | 'refuse' };
  /** Sends the notification of a result (in a request or outside one): one signed event, `copies` deliveries of it. */
  readonly notify: SandboxNotify;
  /** What shopper pages, the expiry sweep and the control API act through. */
  readonly deps: SandboxDeps;
  /** The control API and console's parts; null with `control: false`. Set by startSandbox. */
  control: ControlDeps | null;
  /** `http://host:port`, set once listening. */
  baseUrl: string;
  /** Tests a request's Host header; refuses every request until set once listening. */
  allowsHost: (header: string | undefined) => boolean;
}

/** The signer and verifier: the options', or the reference HMAC-SHA256 signer with the sandbox's default secret. */
function signing(options: SandboxOptions): { signer: Signer; verifier: Verifier } {
  const reference = options.signer && options.verifier ? null : createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
  return { signer: options.signer ?? reference!, verifier: options.verifier ?? reference! };
}

/** Builds a sandbox's parts from its options, opening its state file when one is given. */
export async function sandboxParts(options: SandboxOptions): Promise<SandboxParts> {
  const sandboxClock = new SandboxClock(options.clock);
  const clock = () => sandboxClock.now();
  const ids = new IdSource(new SeededRandom(options.seed ?? 1), clock);
  const { signer, verifier } = signing(options);
  const merchants = new Map((options.merchants ?? [SANDBOX_DEFAULT_MERCHANT]).map((m) => [m.merchantId, m.accountId]));
  // Before the state file opens: a bad setting throws SandboxThrottleError and leaves nothing open.
  const throttle = new Throttle(merchants, options.throttle);
  const state = new SandboxState();
  const notifier = new Notifier(state, clock, signer, options.notify);
  // After a write the file could not keep was undone: deliveries go on from what the file holds.
  const resumeDeliveries = (): void => {
    notifier.cancelPending();
    for (const delivery of state.notifications) notifier.resume(delivery);
  };
  const store = options.stateFile ? await SqliteStateStore.open(options.stateFile, { state, clock: sandboxClock, ids }, resumeDeliveries) : null;
  const notify: SandboxNotify = (kind, url, key, record, operation, copies = 1) => void notifier.send({ kind, url, key, record, operation, copies });
  const limits = serverLimits(options);
  return {
    state,
    sandboxClock,
    clock,
    ids,
    signer,
    verifier,
    merchants,
    allowIps: new Set((options.allowIps ?? ['127.0.0.1', '::1']).map(normaliseAddress)),
    limits,
    bodyLimits: { limit: limits.maxBodyBytes, idleMs: limits.bodyTimeoutMs },
    faults: new FaultPlan(options.faults ?? {}, options.seed ?? 1),
    throttle,
    drift: new AnswerDrift(options.answerDrift),
    notifier,
    store,
    keeper: store ?? MEMORY_KEEPER,
    validator: new RecordValidator(),
    validation: { unknownFields: options.unknownFields === 'accept' ? 'allow' : 'refuse' },
    notify,
    deps: { state, clock, notify, signer, redirectExpiryMs: options.redirectExpiryMs ?? DEFAULT_REDIRECT_EXPIRY_MS },
    control: null,
    baseUrl: '',
    allowsHost: () => false,
  };
}
