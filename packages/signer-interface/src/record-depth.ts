import { MAX_RECORD_DEPTH } from '@gw/types';
import { SignableMessageError } from './signable-message-error.ts';

/**
 * The typed refusal of a record nesting objects and arrays more than `MAX_RECORD_DEPTH` (from `@gw/types`, the limit
 * validation sets) levels deep; `path` is where the walk stopped. The walks refuse such a record instead of recursing
 * into it, so an answer nested thousands of levels deep gives a typed error, never a stack overflow.
 */
export function tooDeepError(context: { operation?: string }, path: string): SignableMessageError {
  return new SignableMessageError(
    `Cannot sign: the record is nested more than ${MAX_RECORD_DEPTH} levels deep (at "${path}"); no gateway record is, so it cannot be signed or verified.`,
    { ...context, path, valueType: 'object', reason: 'too-deep', maxDepth: MAX_RECORD_DEPTH },
  );
}
