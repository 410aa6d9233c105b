import { RecordValidator, ValidationError, fieldWords, specSchemas, type OperationName, type ValidationProblem } from '@gw/types';

let byWords: Map<string, string[]> | null = null;

// Every member name the spec's schemas list anywhere, by its words.
function specNamesByWords(): Map<string, string[]> {
  if (byWords) return byWords;
  byWords = new Map();
  const stack: unknown[] = [specSchemas];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!node || typeof node !== 'object') continue;
    const properties = (node as { properties?: unknown }).properties;
    if (properties && typeof properties === 'object') {
      for (const name of Object.keys(properties)) {
        const key = fieldWords(name);
        const names = byWords.get(key) ?? [];
        if (!names.includes(name)) byWords.set(key, [...names, name]);
      }
    }
    stack.push(...Object.values(node));
  }
  return byWords;
}

const unescapePointer = (segment: string): string => segment.replaceAll('~1', '/').replaceAll('~0', '~');
const escapePointer = (segment: string): string => segment.replaceAll('~', '~0').replaceAll('/', '~1');

// `record` with the member at `pointer` renamed to `to` (a copy), and the renamed member's pointer.
function renamed(record: unknown, pointer: string, to: string): { copy: unknown; pointer: string } | null {
  const segments = pointer.split('/').slice(1).map(unescapePointer);
  const from = segments.pop();
  const copy = structuredClone(record);
  let parent: unknown = copy;
  for (const segment of segments) parent = (parent as Record<string, unknown> | null)?.[segment];
  if (!parent || typeof parent !== 'object' || from === undefined || !(from in parent)) return null;
  const entries = Object.entries(parent as Record<string, unknown>).map(([k, v]) => [k === from ? to : k, v] as const);
  for (const key of Object.keys(parent)) delete (parent as Record<string, unknown>)[key];
  Object.assign(parent, Object.fromEntries(entries));
  return { copy, pointer: [...pointer.split('/').slice(0, -1), escapePointer(to)].join('/') };
}

/** The field the spec lists at a problem's place that `name` spells another way (order_number → order_no), or null. */
function guessFor(validator: RecordValidator, operation: OperationName, record: unknown, problem: ValidationProblem): string | null {
  const name = unescapePointer(problem.pointer.split('/').pop() ?? '');
  for (const candidate of specNamesByWords().get(fieldWords(name)) ?? []) {
    if (candidate === name) continue;
    const tried = renamed(record, problem.pointer, candidate);
    if (!tried) continue;
    const still = validator.requestProblems(operation, tried.copy).some((p) => p.pointer === tried.pointer && p.keyword === 'unknown');
    if (!still) return candidate;
  }
  return null;
}

/**
 * The same ValidationError with "did you mean" added to each unknown field that is a field listed at its place
 * written with other words for the same thing (`order_number` for `order_no`); the error itself when none is.
 */
export function withFieldGuesses(operation: OperationName, record: unknown, error: ValidationError): ValidationError {
  const validator = new RecordValidator();
  let guessed = false;
  const problems = error.details.problems.map((problem) => {
    if (problem.keyword !== 'unknown' || problem.message.includes('did you mean')) return problem;
    const guess = guessFor(validator, operation, record, problem);
    if (!guess) return problem;
    guessed = true;
    return { ...problem, message: `${problem.message}; did you mean \`${guess}\`?` };
  });
  if (!guessed) return error;
  const { operation: name, schema } = error.details;
  const plain = new ValidationError(name, schema, error.details.problems).message;
  const hint = error.message.startsWith(`${plain}. `) ? error.message.slice(plain.length + 2) : undefined;
  return new ValidationError(name, schema, problems, hint);
}
