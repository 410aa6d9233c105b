import { operations, secretFields, type OperationName } from '@gw/types';
import type { SignableField } from './signable-field.ts';
import { SignableMessageError } from './signable-message-error.ts';
import { RecordShapes } from './record-shape.ts';
import { visitRecordLeaves, type PathOrder } from './walk-record.ts';

/** The operation a message belongs to: its client-level name and its path. */
export interface SignableOperation {
  /** A name from `operations` in `@gw/types`: `capture`, `authoriseCard`, ... */
  readonly name: OperationName;
  /** Its path, e.g. `/v1/capture` (`authoriseCard` and `authoriseAlternative` share `/v1/authorise`). */
  readonly path: string;
}

/**
 * Everything a signature algorithm may be computed from, with `encryption_data` left out everywhere: the signature
 * cannot cover itself. The gateway's algorithm is not shown (UNKNOWNS U41), so the message offers the three usual
 * inputs (the operation, the ordered field pairs, the encoded body) and a signer picks what it needs.
 */
export interface SignableMessage {
  readonly operation: SignableOperation;
  /** Every leaf of the record as (path, value), in the record's own key order, `encryption_data` left out. */
  readonly fields: readonly SignableField[];
  /** The body bytes exactly as sent, encoded from the record WITHOUT `encryption_data` (see `omitEncryptionData`). */
  readonly body: Uint8Array;
}

/** What `createSignableMessage` is built from. */
export interface CreateSignableMessageOptions {
  /** The client-level operation name. */
  readonly operation: OperationName;
  /** The request or response record; any `encryption_data` in it is ignored. */
  readonly record: object;
  /**
   * The record encoded without `encryption_data` (JSON, form or XML per the operation); a string is taken as UTF-8.
   * A function is called the first time a signer reads `message.body`, so field-based signers never pay for encoding.
   */
  readonly body: Uint8Array | string | (() => Uint8Array | string);
}

const INSPECT = Symbol.for('nodejs.util.inspect.custom');
const SECRET_KEYS: ReadonlySet<string> = new Set(secretFields);
const REDACTED = '[redacted]';
const OPERATIONS: ReadonlyMap<string, SignableOperation> = new Map(
  Object.values(operations).map((op) => [op.name, Object.freeze({ name: op.name as OperationName, path: op.path })]),
);

// Card data must reach the signer in the clear, but console.log / util.inspect of a message must not print it.
function toField(path: string, value: string, secret: boolean): SignableField {
  const field = { path, value };
  if (secret) Object.defineProperty(field, INSPECT, { value: () => ({ path, value: REDACTED }) });
  return Object.freeze(field);
}

function toBytes(value: unknown, operation: string): Uint8Array {
  if (typeof value === 'string') return new TextEncoder().encode(value);
  if (value instanceof Uint8Array) return new Uint8Array(value); // a copy: later changes to the caller's buffer must not change the message
  throw new SignableMessageError(`Cannot sign ${operation}: body must be a Uint8Array or a string (or a function giving one).`, {
    operation,
    valueType: value === null ? 'null' : typeof value,
  });
}

/** The leaves of a message as the walk found them: paths and values side by side, and which values are secret. */
interface MessageLeaves {
  readonly paths: readonly string[];
  readonly values: readonly string[];
  /** Indexes of leaves whose last key is a secret field (card number, CVV, expiry). */
  readonly secret: readonly number[];
  /** The leaves' indexes sorted by path, when the walk could tell (see PathOrder). */
  readonly pathOrder: PathOrder | null;
}

// A class, not an object literal with per-message property definitions: building one is on every request's path.
// The field objects are made on first read of `fields`: a signer that reads the leaves through `signingLeaves` (the
// reference HMAC) never pays for freezing one object per leaf.
class BuiltSignableMessage implements SignableMessage {
  readonly operation: SignableOperation;
  readonly #leaves: MessageLeaves;
  #fields: readonly SignableField[] | undefined;
  #source: unknown;
  #bytes: Uint8Array | undefined;

  constructor(operation: SignableOperation, leaves: MessageLeaves, body: unknown) {
    this.operation = operation;
    this.#leaves = leaves;
    // A body given as a function is encoded on first use only: signers that never read it pay nothing for it.
    if (typeof body === 'function') this.#source = body;
    else this.#bytes = toBytes(body, operation.name);
    Object.freeze(this);
  }

  static leavesOf(message: BuiltSignableMessage): MessageLeaves {
    return message.#leaves;
  }

  /** Every leaf of the record as (path, value), in the record's own key order, `encryption_data` left out. */
  get fields(): readonly SignableField[] {
    if (this.#fields === undefined) {
      const { paths, values, secret } = this.#leaves;
      const fields: SignableField[] = new Array(paths.length);
      let next = 0;
      for (let i = 0; i < paths.length; i++) {
        const isSecret = secret[next] === i;
        if (isSecret) next += 1;
        fields[i] = toField(paths[i]!, values[i]!, isSecret);
      }
      this.#fields = Object.freeze(fields);
    }
    return this.#fields;
  }

  get body(): Uint8Array {
    return (this.#bytes ??= toBytes((this.#source as () => unknown)(), this.operation.name));
  }

  [INSPECT](_depth: number, inspectOptions: unknown, inspect: (value: unknown, options: unknown) => string): string {
    const body = this.#bytes ? `<${this.#bytes.byteLength} bytes>` : '<not encoded yet>';
    return `SignableMessage ${inspect({ operation: this.operation, fields: this.fields, body }, inspectOptions)}`;
  }
}

/** True for a message built by `createSignableMessage` (its shape needs no further checking). */
export function isBuiltSignableMessage(value: unknown): value is SignableMessage {
  return value instanceof BuiltSignableMessage;
}

/**
 * Internal (not exported from the package): the paths, values and order by path of a message built here, without
 * making its field objects; null for any other message (read its `fields`).
 */
export function signingLeaves(message: SignableMessage): Pick<MessageLeaves, 'paths' | 'values' | 'pathOrder'> | null {
  return message instanceof BuiltSignableMessage ? BuiltSignableMessage.leavesOf(message) : null;
}

// Shapes seen per operation: a record of a known shape skips the path building and ordering (see RecordShapes).
const SHAPES = new RecordShapes();

/** Builds the message a `Signer` signs and a `Verifier` checks: operation, field pairs and body, without `encryption_data`. */
export function createSignableMessage(options: CreateSignableMessageOptions): SignableMessage {
  const { operation, record, body } = options;
  const op = typeof operation === 'string' ? OPERATIONS.get(operation) : undefined;
  if (!op) {
    throw new SignableMessageError(
      `Cannot sign: "${String(operation)}" is not an operation; use one of ${Object.keys(operations).join(', ')}.`,
      { valueType: typeof operation },
    );
  }
  if (typeof body !== 'function' && typeof body !== 'string' && !(body instanceof Uint8Array)) toBytes(body, operation);
  const known = SHAPES.match(operation, record);
  if (known) return new BuiltSignableMessage(op, known, body);
  const paths: string[] = [];
  const values: string[] = [];
  const secret: number[] = [];
  const pathOrder = visitRecordLeaves(
    record,
    { operation },
    (stack, depth, path, value) => {
      const last = stack[depth - 1];
      if (typeof last === 'string' && SECRET_KEYS.has(last)) secret.push(paths.length);
      paths.push(path);
      values.push(value);
    },
    { pathOrder: true },
  );
  SHAPES.remember(operation, record, { paths, secret, pathOrder });
  return new BuiltSignableMessage(op, { paths, values, secret, pathOrder }, body);
}
