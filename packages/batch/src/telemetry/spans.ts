import type * as OtelApi from '@opentelemetry/api';
import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import { errorTypeOf } from './otel-api.ts';

/** Ends `span` with an error: its `error.type` (gw's code) and an ERROR status, never the error's message. */
export function endFailed(api: typeof OtelApi, span: Span, error: unknown): void {
  if (span.isRecording()) {
    span.setAttribute('error.type', errorTypeOf(error));
    span.setStatus({ code: api.SpanStatusCode.ERROR, message: errorTypeOf(error) });
  }
  span.end();
}

/**
 * Runs `work` in a child span of `parent` named `name`, ending it with `after`'s attributes or the error. Attributes
 * are built (`attributes`, `after`) only for a span that records.
 */
export async function inChild<T>(
  api: typeof OtelApi,
  tracer: Tracer,
  parent: Context,
  name: string,
  attributes: () => Attributes,
  work: () => Promise<T>,
  after?: (result: T) => Attributes,
): Promise<T> {
  const span = tracer.startSpan(name, { kind: api.SpanKind.INTERNAL }, parent);
  if (span.isRecording()) span.setAttributes(attributes());
  let result: T;
  try {
    result = await api.context.with(api.trace.setSpan(parent, span), work);
  } catch (error) {
    endFailed(api, span, error);
    throw error;
  }
  if (after && span.isRecording()) span.setAttributes(after(result));
  span.end();
  return result;
}
