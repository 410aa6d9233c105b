import { checkResponseSignature, type ResponseSignatureCheck } from '@gw/client';
import type { Verifier } from '@gw/signer-interface';
import { operationsByPath, RecordValidator, variantOf, type OperationSpec } from '@gw/types';
import type { DriftRecorder } from '../report/drift-recorder.ts';
import { checkBatchEcho } from './batch-echo.ts';
import { decodeAnswer, decodeRequest, nameOf, type WireForm } from './decode.ts';
import { pathShape } from '../redact/report-redaction.ts';
import { shapeOf } from './example.ts';
import type { Exchange, ExchangeTiming } from './exchange.ts';
import { problemDrift } from './problem-drift.ts';
import { throttleOf } from './throttle.ts';
import { walkAnswer } from './walk-answer.ts';

/** What checking needs besides the exchange. */
export interface CheckContext {
  readonly recorder: DriftRecorder;
  readonly validator: RecordValidator;
  readonly verifier: Verifier | null;
  readonly maxInputBytes: number;
}

/** The media type of a Content-Type header, lower case, without parameters. */
function mediaType(header: string): string {
  return header.split(';')[0]!.trim().toLowerCase();
}

/** The wire forms the spec shows for a request: its declared one, and a form where it declares none (UNKNOWNS U31). */
function allowedForms(op: OperationSpec): readonly WireForm[] {
  return op.requestEncodingDeclared ? [op.requestEncoding] : [op.requestEncoding, 'form'];
}

/** The operation a request is, and its decoded record (null when it had no body or could not be read). */
interface CheckedRequest {
  readonly op: OperationSpec;
  readonly record: Record<string, unknown> | null;
}

function checkRequest(exchange: Exchange, variants: readonly OperationSpec[], ctx: CheckContext): CheckedRequest {
  if (!exchange.requestBody) return { op: variantOf(variants, null), record: null };
  const decoded = decodeRequest(variants, exchange.requestContentType, exchange.requestBody);
  const operation = decoded.op.name;
  if ('failure' in decoded) {
    ctx.recorder.drift({ operation, side: 'request', kind: 'undecodable', path: '', message: decoded.failure, example: '', seenType: null });
    return { op: decoded.op, record: null };
  }
  ctx.recorder.requestFormSeen(operation, decoded.form);
  if (!allowedForms(decoded.op).includes(decoded.form)) {
    ctx.recorder.drift({
      operation,
      side: 'request',
      kind: 'wire-form',
      path: '',
      message: `sent as ${decoded.form}; the spec shows ${decoded.op.requestEncoding}`,
      example: mediaType(exchange.requestContentType),
      seenType: null,
    });
  }
  for (const problem of ctx.validator.problems(decoded.op.requestSchema, decoded.record))
    ctx.recorder.drift(problemDrift(operation, 'request', decoded.record, problem));
  return { op: decoded.op, record: decoded.record };
}

/**
 * Verifies an answer's signature, when a verifier was given: at once with a synchronous verifier (no promise on the
 * proxy's every exchange), or once an asynchronous one answers.
 */
function checkSignature(op: OperationSpec, record: Record<string, unknown>, ctx: CheckContext): void | Promise<void> {
  if (!ctx.verifier) return;
  const verdict = checkResponseSignature(nameOf(op), record, ctx.verifier);
  if (typeof verdict === 'string') return recordSignatureVerdict(op, record, verdict, ctx.recorder);
  return verdict.then((v) => recordSignatureVerdict(op, record, v, ctx.recorder));
}

function recordSignatureVerdict(op: OperationSpec, record: Record<string, unknown>, verdict: ResponseSignatureCheck, recorder: DriftRecorder): void {
  if (verdict !== 'mismatch' && verdict !== 'missing') return;
  const signature = typeof record.encryption_data === 'string' ? record.encryption_data : '';
  const message =
    verdict === 'missing'
      ? 'absent, though the spec says this answer is signed'
      : 'does not verify with the configured verifier (the signing rule or the secret differs)';
  recorder.drift({
    operation: op.name,
    side: 'response',
    kind: 'signature',
    path: 'encryption_data',
    message,
    example: shapeOf(signature.slice(0, 16)),
    seenType: verdict === 'missing' ? null : 'string',
  });
}

function checkAnswer(exchange: Exchange, { op, record: request }: CheckedRequest, ctx: CheckContext, timing: ExchangeTiming): string | Promise<string> {
  const { recorder } = ctx;
  const operation = op.name;
  recorder.answerSeen(operation, exchange.status, mediaType(exchange.responseContentType));
  // UNKNOWNS U50, U56: a throttle says what the gateway's limits are, not how its answers are shaped: an observation, not drift.
  const throttle = throttleOf(exchange, timing.answeredAt);
  if (throttle) {
    recorder.throttleSeen(operation, throttle, timing.pace);
    return operation;
  }
  // UNKNOWNS U49: the spec shows HTTP 200 only; any other status is drift, and its body is not read.
  if (exchange.status !== 200) {
    recorder.drift({
      operation,
      side: 'response',
      kind: 'status',
      path: '',
      message: `HTTP ${exchange.status}; the spec shows 200 only`,
      example: String(exchange.status),
      seenType: null,
    });
    return operation;
  }
  if (mediaType(exchange.responseContentType) !== op.responseMediaType) {
    recorder.drift({
      operation,
      side: 'response',
      kind: 'content-type',
      path: '',
      message: `Content-Type ${mediaType(exchange.responseContentType) || '(none)'}; the spec shows ${op.responseMediaType}`,
      example: mediaType(exchange.responseContentType),
      seenType: null,
    });
  }
  if (!exchange.responseBody) return operation;
  let record: Record<string, unknown>;
  try {
    record = decodeAnswer(op, exchange.responseBody, ctx.maxInputBytes);
  } catch (error) {
    recorder.drift({
      operation,
      side: 'response',
      kind: 'undecodable',
      path: '',
      message: `not readable as ${op.responseEncoding}: ${shapeOfDigits(error)}`,
      example: '',
      seenType: null,
    });
    return operation;
  }
  recorder.observations(operation).answers += 1;
  // The one rule of answer drift, shared with the client's `answers` policy.
  for (const problem of ctx.validator.responseProblems(nameOf(op), record)) recorder.drift(problemDrift(operation, 'response', record, problem));
  walkAnswer(op, record, recorder, checkBatchEcho(op, request, record, recorder));
  const signed = checkSignature(op, record, ctx);
  return signed ? signed.then(() => operation) : operation;
}

/** A decoding error's message with any digit run shaped (it might quote a value). */
function shapeOfDigits(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\d{6,}/g, (run) => shapeOf(run));
}

/**
 * Checks one exchange against the spec and records what it found (a throttle as an observation, UNKNOWNS U50); never
 * throws for what the traffic holds. Done when it returns, unless the verifier is asynchronous: then when the promise
 * it returns settles. The operation the exchange is (an unknown path by its shape).
 */
export function checkExchange(exchange: Exchange, ctx: CheckContext, timing: ExchangeTiming): string | Promise<string> {
  const path = exchange.path;
  const variants = operationsByPath.get(path);
  ctx.recorder.exchange(exchange.requestBody !== null && exchange.responseBody !== null);
  if (!variants) {
    // Reported by its shape (`/v1/cards/{digits}`): a path the spec does not know may carry anything.
    const shape = pathShape(path);
    ctx.recorder.drift({
      operation: shape,
      side: 'request',
      kind: 'unknown-path',
      path: '',
      message: `no operation of the spec at ${shape}`,
      example: pathShape(exchange.method),
      seenType: null,
    });
    return shape;
  }
  return checkAnswer(exchange, checkRequest(exchange, variants, ctx), ctx, timing);
}
