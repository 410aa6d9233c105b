import { operations, type OperationName } from '@gw/types';
import { OperationCaller, type CallOptions } from './call-operation.ts';
import { resolveClientOptions, type ClientOptions } from './client-options.ts';
import { isGuardedCall } from './guarded-call.ts';
import type { OperationMethods } from './generated/methods.gen.ts';

export type { RequestInput } from './request-input.ts';

/**
 * A client for the gateway's /v1 interface: one typed method per operation of the spec. The methods, their
 * signatures and doc comments are generated from the spec (`pnpm generate`), so a new operation is a method here.
 */
export interface GwClient extends OperationMethods {
  /** Closes the client's keep-alive connections (not a dispatcher you passed in). */
  close(): Promise<void>;
  /** Same as close(), for `await using client = createClient(...)`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** Creates a client: checks the options (ConfigError names a bad one) and opens nothing until the first call. */
export function createClient(options: ClientOptions): GwClient {
  const caller = new OperationCaller(resolveClientOptions(options));
  const client: Record<string | symbol, unknown> = {};
  // The methods come from the operation table, so a path, encoding or limit is never listed here by hand.
  for (const name of Object.keys(operations) as OperationName[]) {
    client[name] = (input: unknown, callOptions?: CallOptions) => {
      const called = caller.call(name, input, callOptions);
      // A guarded call (a batch's send) gets its answer back vouched for by its own options.
      return isGuardedCall(callOptions) ? called.then((answer) => callOptions.answered(answer)) : called;
    };
  }
  client.close = () => caller.close();
  client[Symbol.asyncDispose] = () => caller.close();
  return Object.freeze(client) as unknown as GwClient;
}
