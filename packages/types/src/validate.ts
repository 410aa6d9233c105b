import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { operations, type OperationName } from './generated/operations.gen.ts';
import { specSchemas } from './generated/spec-schemas.gen.ts';
import { type ValidationProblem, ValidationError } from './validation-error.ts';

const SCHEMA_ID = (specSchemas as { $id: string }).$id;

/** Turns a JSON Pointer (`/capture_orders/0/amount`) into a field path (`capture_orders[0].amount`). */
export function pointerToField(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    out += /^\d+$/.test(part) ? `[${part}]` : out ? `.${part}` : part;
  }
  return out;
}

function describe(error: ErrorObject): string {
  switch (error.keyword) {
    case 'pattern':
      return `does not match the format ${String(error.params.pattern)}`;
    case 'maxItems':
      return `has more than ${String(error.params.limit)} items`;
    case 'minItems':
      return `has fewer than ${String(error.params.limit)} items`;
    case 'type':
      return `must be of type ${String(error.params.type)}`;
    default:
      return error.message ?? error.keyword;
  }
}

function collectExtensionKeywords(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => collectExtensionKeywords(n, found));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('x-')) found.add(key);
      else collectExtensionKeywords(value, found);
    }
  }
  return found;
}

let sharedAjv: Ajv2020 | undefined;

// One Ajv for the process, holding the spec's schemas: adding them costs tens of milliseconds (the meta-schema check
// of the whole spec), too much to pay for every client, batch or sandbox. Compiled validators are kept by it too.
function specAjv(): Ajv2020 {
  if (!sharedAjv) {
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true });
    // The spec's x-gw-* annotations are metadata, not assertions.
    for (const keyword of collectExtensionKeywords(specSchemas)) ajv.addKeyword({ keyword });
    ajv.addSchema(specSchemas);
    sharedAjv = ajv;
  }
  return sharedAjv;
}

/** Validates records against the spec's own schemas: one compiled validator per schema, built on first use. */
export class RecordValidator {
  readonly #ajv: Ajv2020;
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor() {
    this.#ajv = specAjv();
  }

  #validator(schema: string): ValidateFunction {
    let fn = this.#compiled.get(schema);
    if (!fn) {
      fn = this.#ajv.getSchema(`${SCHEMA_ID}#/$defs/${schema}`);
      if (!fn) throw new Error(`no schema named ${schema} in the spec`);
      this.#compiled.set(schema, fn);
    }
    return fn;
  }

  /** Every problem of `record` against the named component schema (empty when valid). */
  problems(schema: string, record: unknown): ValidationProblem[] {
    const fn = this.#validator(schema);
    if (fn(record)) return [];
    const seen = new Set<string>();
    const out: ValidationProblem[] = [];
    for (const error of fn.errors ?? []) {
      // allOf/anyOf wrappers repeat their children's findings; one line per place and keyword is enough.
      const key = `${error.instancePath}|${error.keyword}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ pointer: error.instancePath, field: pointerToField(error.instancePath), keyword: error.keyword, message: describe(error) });
    }
    return out;
  }

  /** Every problem of an operation's request record (empty when valid). */
  requestProblems(operation: OperationName, record: unknown): ValidationProblem[] {
    return this.problems(operations[operation].requestSchema, record);
  }

  /** Throws a ValidationError naming every problem of an operation's request record. */
  assertRequest(operation: OperationName, record: unknown, hint?: string): void {
    const problems = this.requestProblems(operation, record);
    if (problems.length > 0) throw new ValidationError(operation, operations[operation].requestSchema, problems, hint);
  }
}
