// The bridge to the @hey-api/openapi-ts SDK in ./generated: its operation functions and fetch runtime carry every
// request, with bodies this package encodes itself (the same `encodeRequestBody` the sandbox re-creates for signing).
import { operations, type OperationName } from '@gw/types';
import { createClient as createRuntimeClient, type Client as RuntimeClient } from './generated/openapi/client/index.ts';
import * as sdk from './generated/openapi/sdk.gen.ts';

/** What a generated operation function is called with here: a pre-encoded body passed through untouched. */
interface PreEncodedCall {
  readonly client: RuntimeClient;
  readonly body: string;
  readonly bodySerializer: null;
  readonly parseAs: 'text';
  readonly headers: Readonly<Record<string, string>>;
  readonly fetch: (request: Request) => Promise<Response>;
}

/** What the runtime answers with `throwOnError: false`: the text body of a 2xx, or the error and the response. */
export interface RuntimeResult {
  readonly data?: unknown;
  readonly error?: unknown;
  readonly response?: Response;
}

type GeneratedOperation = (options: PreEncodedCall) => Promise<RuntimeResult>;

// The generated functions type `body` as the record; here it is the record already encoded, hence the one widening.
const generated = sdk as unknown as Readonly<Record<string, GeneratedOperation | undefined>>;

/** The generated function of each client-level operation, found by its `operationId` in the x-gw table. */
export const generatedOperations: Readonly<Record<OperationName, GeneratedOperation>> = Object.fromEntries(
  (Object.keys(operations) as OperationName[]).map((name) => {
    const fn = generated[operations[name].operationId];
    if (typeof fn !== 'function') throw new Error(`@gw/client: the generated SDK has no function ${operations[name].operationId} for ${name}; run pnpm generate`);
    return [name, fn];
  }),
) as Record<OperationName, GeneratedOperation>;

/** A runtime client for one base URL: bodies pass through as given, responses come back as text, errors as values. */
export function createPreEncodedRuntime(baseUrl: string): RuntimeClient {
  return createRuntimeClient({ baseUrl, bodySerializer: null, parseAs: 'text', responseStyle: 'fields', throwOnError: false });
}

/** Calls the generated function of `operation` with a pre-encoded body and a per-call fetch. */
export function callGenerated(operation: OperationName, call: PreEncodedCall): Promise<RuntimeResult> {
  return generatedOperations[operation](call);
}
