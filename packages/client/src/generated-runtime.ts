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

/** The request line and headers the generated function of an operation sends, learned from it once. */
export interface RequestTemplate {
  /** The path part of the generated function's URL, e.g. `/v1/capture`. */
  readonly path: string;
  /** Every header it sets (its Content-Type included), lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Calls the generated function of `operation` once, with a fetch that only looks at the Request it is handed, and
 * returns that request's path and headers. The operations take no path, query or header parameters, so every call of
 * a generated function builds the same request but for its body: the client sends each call with this template and
 * its own body, instead of having the runtime build a WHATWG Request (and a stream around the body) per call.
 */
export async function learnRequestTemplate(operation: OperationName, runtime: RuntimeClient, origin: string, headers: Readonly<Record<string, string>>): Promise<RequestTemplate> {
  let template: RequestTemplate | undefined;
  let refusal: Error | undefined;
  const result = await callGenerated(operation, {
    client: runtime,
    body: '-', // any non-empty body: the runtime drops Content-Type for an empty one
    bodySerializer: null,
    parseAs: 'text',
    headers,
    fetch: async (request) => {
      const url = new URL(request.url);
      if (request.method !== 'POST' || url.origin !== new URL(origin).origin || url.search !== '') {
        refusal = new Error(`@gw/client: the generated ${operations[operation].operationId} sends ${request.method} ${request.url}, not a POST under ${origin}`);
        throw refusal;
      }
      const seen: Record<string, string> = {};
      request.headers.forEach((value, name) => {
        seen[name] = value;
      });
      template = { path: url.pathname, headers: Object.freeze(seen) };
      return new Response(null, { status: 200 });
    },
  });
  if (refusal) throw refusal;
  if (!template) throw new Error(`@gw/client: the generated ${operations[operation].operationId} did not send a request`, { cause: result.error });
  return template;
}
