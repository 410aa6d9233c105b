import { isCardDataField, operations, type OperationName } from '@gw/types';
import type { SignableField } from './signable-field.ts';
import { SignableMessageError } from './signable-message-error.ts';
import { visitRecordLeaves } from './walk-record.ts';

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
const OPERATIONS: ReadonlyMap<string, SignableOperation> = new Map(
  Object.values(operations).map((op) => [op.name, Object.freeze({ name: op.name as OperationName, path: op.path })]),
);

// Card data must reach the signer in the clear, but console.log / util.inspect of a message must not print it.
class SecretField implements SignableField {
  readonly path: string;
  readonly value: string;

  constructor(path: string, value: string) {
    this.path = path;
    this.value = value;
    Object.freeze(this);
  }

  [INSPECT](): object {
    return { path: this.path, value: '[redacted]' };
  }
}

function toBytes(value: unknown, operation: string): Uint8Array {
  if (typeof value === 'string') return new TextEncoder().encode(value);
  if (value instanceof Uint8Array) return new Uint8Array(value); // a copy: later changes to the caller's buffer must not change the message
  throw new SignableMessageError(`Cannot sign ${operation}: body must be a Uint8Array or a string (or a function giving one).`, {
    operation,
    valueType: value === null ? 'null' : typeof value,
  });
}

// A class with private fields: the body is encoded on first read only, and assertSignableMessage recognises a message
// built here without reading a lazy body.
class BuiltSignableMessage implements SignableMessage {
  readonly operation: SignableOperation;
  readonly fields: readonly SignableField[];
  #source: unknown;
  #bytes: Uint8Array | undefined;

  constructor(operation: SignableOperation, fields: readonly SignableField[], body: unknown) {
    this.operation = operation;
    this.fields = fields;
    // A body given as a function is encoded on first use only: signers that never read it pay nothing for it.
    if (typeof body === 'function') this.#source = body;
    else this.#bytes = toBytes(body, operation.name);
    Object.freeze(this);
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

/** Builds the message a `Signer` signs and a `Verifier` checks: operation, field pairs and body, without `encryption_data`. */
export function createSignableMessage(options: CreateSignableMessageOptions): SignableMessage {
  const { operation, record, body } = options;
  const op = typeof operation === 'string' ? OPERATIONS.get(operation) : undefined;
  if (!op) {
    throw new SignableMessageError(`Cannot sign: "${String(operation)}" is not an operation; use one of ${Object.keys(operations).join(', ')}.`, {
      valueType: typeof operation,
    });
  }
  if (typeof body !== 'function' && typeof body !== 'string' && !(body instanceof Uint8Array)) toBytes(body, operation);
  const fields: SignableField[] = [];
  visitRecordLeaves(record, { operation }, (path, value, segments) => {
    const key = segments.at(-1);
    fields.push(typeof key === 'string' && isCardDataField(key) ? new SecretField(path, value) : Object.freeze({ path, value }));
  });
  return new BuiltSignableMessage(op, Object.freeze(fields), body);
}
