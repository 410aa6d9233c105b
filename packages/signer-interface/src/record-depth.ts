import { SignableMessageError } from './signable-message-error.ts';

/**
 * The deepest field path a record may have, in segments (`a.b[0]` is 3). Gateway records are a few levels deep; the
 * walks refuse anything deeper instead of recursing into it, so an answer nested thousands of levels deep gives a
 * typed error, never a stack overflow.
 */
export const MAX_RECORD_DEPTH = 100;

/** The typed refusal of a record nested deeper than `MAX_RECORD_DEPTH`; `path` is where the walk stopped. */
export function tooDeepError(context: { operation?: string }, path: string): SignableMessageError {
  return new SignableMessageError(
    `Cannot sign: the record is nested more than ${MAX_RECORD_DEPTH} levels deep (at "${path}"); no gateway record is, so it cannot be signed or verified.`,
    { ...context, path, valueType: 'object', reason: 'too-deep', maxDepth: MAX_RECORD_DEPTH },
  );
}
