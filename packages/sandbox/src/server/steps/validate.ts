import type { OperationName } from '@gw/types';
import { SandboxHttpError } from '../../refusals/errors.ts';
import type { SandboxParts } from '../sandbox-parts.ts';
import { logRequest, type V1Call } from '../v1-call.ts';

/** Validate: refuses (HTTP 400, every problem named) a record its request schema does not accept. */
export function validate(parts: SandboxParts, call: V1Call): void {
  const { op } = call;
  const problems = parts.validator.requestProblems(op.name as OperationName, call.record, parts.validation);
  if (problems.length === 0) return;
  logRequest(parts, call, op.name, false, 'invalid');
  throw new SandboxHttpError(
    400,
    `${problems.length} problem(s) in ${op.requestSchema}`,
    problems.map((p) => ({ path: p.field, message: p.message })),
  );
}
