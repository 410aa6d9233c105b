import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { operations, type OperationName } from './generated/operations.gen.ts';
import { specSchemas } from './generated/spec-schemas.gen.ts';
import { fieldProblems, type UnknownFieldPolicy } from './field-problems.ts';
import { pointerToField } from './pointer.ts';
import { type ValidationProblem, ValidationError } from './validation-error.ts';

export { pointerToField } from './pointer.ts';

/** Options of a validation. */
export interface ValidateOptions {
  /**
   * Member names the spec does not list at their place: `refuse` (the default: each is a problem naming the closest
   * known name) or `allow`. Card data (`card`, `security_code`, `expiration_month`, `expiration_year`) where the
   * schema does not carry it is refused either way.
   */
  readonly unknownFields?: UnknownFieldPolicy;
}

const SCHEMA_ID = (specSchemas as { $id: string }).$id;

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

/** The `format` names the schemas use. */
function collectFormats(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => collectFormats(n, found));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'format' && typeof value === 'string') found.add(value);
      else collectFormats(value, found);
    }
  }
  return found;
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

// ajv-formats is CommonJS: an ES import gets its module.exports, whose `default` is the plugin.
const addFormats = ajvFormats.default;

let sharedAjv: Ajv2020 | undefined;

/** The Ajv options of the spec's validators (strict: a schema keyword Ajv does not know fails its compile). */
export const SPEC_AJV_OPTIONS = { allErrors: true, strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true } as const;

// One Ajv for the process, holding the spec's schemas; compiled validators are kept by it too. The generated schemas
// are not checked against JSON Schema's meta-schema here: that check costs ~60 ms of CPU at the start of every
// process (each `gw` command, each process of a batch fleet) and gives the same answer every time, so a test makes it
// once (validate.spec-schemas-pass-the-meta-schema.test.ts).
function specAjv(): Ajv2020 {
  if (!sharedAjv) {
    const ajv = new Ajv2020({ ...SPEC_AJV_OPTIONS, validateSchema: false });
    // The spec's x-gw-* annotations are metadata, not assertions.
    for (const keyword of collectExtensionKeywords(specSchemas)) ajv.addKeyword({ keyword });
    // A `format` the spec states is checked (ajv-formats: date, date-time, email, uri, uuid, ...); one ajv-formats does
    // not know is accepted as any string rather than making every schema fail to compile.
    addFormats(ajv);
    for (const format of collectFormats(specSchemas)) if (!ajv.formats[format]) ajv.addFormat(format, true);
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

  /**
   * Every problem of `record` against the named component schema (empty when valid): the schema's rules, names it
   * does not list (see ValidateOptions), card data where it does not belong, nesting deeper than 32 levels and cycles.
   */
  problems(schema: string, record: unknown, options: ValidateOptions = {}): ValidationProblem[] {
    const fn = this.#validator(schema);
    const structure = fieldProblems(schema, record, options.unknownFields ?? 'refuse');
    // A record too deep or cyclic is not handed to the schema check at all.
    if (structure.some((p) => p.keyword === 'depth' || p.keyword === 'cycle')) return structure;
    if (fn(record)) return structure;
    const seen = new Set<string>();
    const out: ValidationProblem[] = [];
    for (const error of fn.errors ?? []) {
      // allOf/anyOf wrappers repeat their children's findings; one line per place and keyword is enough.
      const key = `${error.instancePath}|${error.keyword}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ pointer: error.instancePath, field: pointerToField(error.instancePath), keyword: error.keyword, message: describe(error) });
    }
    return [...out, ...structure];
  }

  /** Every problem of an operation's request record (empty when valid). */
  requestProblems(operation: OperationName, record: unknown, options: ValidateOptions = {}): ValidationProblem[] {
    return this.problems(operations[operation].requestSchema, record, options);
  }

  /**
   * Every way an operation's decoded answer differs from the spec (empty when it matches): the one rule `gw proxy`
   * reports as drift and the client's `answers` policy acts on. UNKNOWNS U42: an answer signed per
   * `x-gw-response-signature` carries `encryption_data` whether its schema lists it or not.
   */
  responseProblems(operation: OperationName, record: unknown): ValidationProblem[] {
    const op = operations[operation];
    const problems = this.problems(op.responseSchema, record);
    if (op.responseSignature === 'none') return problems;
    return problems.filter((p) => !(p.pointer === '/encryption_data' && p.keyword === 'unknown'));
  }

  /** Throws a ValidationError naming every problem of an operation's request record. */
  assertRequest(operation: OperationName, record: unknown, hint?: string, options: ValidateOptions = {}): void {
    const problems = this.requestProblems(operation, record, options);
    if (problems.length > 0) throw new ValidationError(operation, operations[operation].requestSchema, problems, hint);
  }
}
