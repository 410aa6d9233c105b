import type { SpecDocument } from './spec.ts';
import type { OperationRow } from './tables.ts';

// One sentence per fact of the table, so a method's doc comment says what a caller needs without opening the spec.
function facts(row: OperationRow): string[] {
  const answer =
    row.responseEncoding === 'html'
      ? `an HTML page whose form decodes to \`${row.responseSchema}\`, returned decoded with the HTML`
      : `\`${row.responseSchema}\` (${row.responseEncoding})`;
  const lines = [`\`POST ${row.path}\`, ${row.requestEncoding} body; answers ${answer}.`];
  if (row.batch?.separator) lines.push(`Selects up to ${row.batch.limit} orders; each result is in \`${row.batch.responseArray}\`.`);
  else if (row.batch)
    lines.push(
      `Up to ${row.batch.limit} orders in \`${row.batch.array}\`; each element's result is in \`${row.batch.responseArray}\` (\`${row.batch.statusField}\`).`,
    );
  if (row.responseSignature === 'required') lines.push("The answer's `encryption_data` is verified (SignatureError when missing or wrong).");
  lines.push(
    row.retryClass === 'safe'
      ? 'Safe: retried on connection failures and the retried HTTP statuses.'
      : 'Money-moving: never retried once sent; a lost answer throws OutcomeUnknownError with the identifiers to reconcile.',
  );
  return lines;
}

function summaryOf(doc: SpecDocument, row: OperationRow): string {
  const operation = doc.paths?.[row.path]?.post ?? {};
  const variant = (operation['x-gw-variants'] ?? []).find((v: any) => v?.name === row.name);
  const text = String(variant?.summary ?? operation.summary ?? row.operationId).trim();
  return text.endsWith('.') ? text : `${text}.`;
}

function comment(lines: string[]): string {
  const safe = lines.map((line) => line.replaceAll('*/', '*\\/'));
  return ['  /**', ...safe.map((line) => (line ? `   * ${line}` : '   *')), '   */'].join('\n');
}

// The parameter and result types: the table decides (a list-in-a-string selection takes lists, an HTML answer is a page).
// A batch operation also takes a GuardedCall first (a batch worker's send): its answer comes back vouched for, so a
// wrapper that drops the options is no longer the method's type.
function signature(row: OperationRow): string {
  const input = row.batch?.separator ? 'selection: QueryInput' : `request: RequestInput<T.${row.requestSchema}>`;
  const output = row.responseEncoding === 'html' ? 'CheckoutResult' : `T.${row.responseSchema}`;
  const plain = `  ${row.name}(${input}, options?: CallOptions): Promise<${output}>;`;
  return row.batch ? `  ${row.name}(${input}, options: GuardedCall): Promise<Guarded<${output}>>;\n${plain}` : plain;
}

/** The body of `packages/client/src/generated/methods.gen.ts`: one typed, documented method per row of the table. */
export function clientMethodsModule(doc: SpecDocument, rows: OperationRow[]): string {
  const methods = rows.map((row) => `${comment([summaryOf(doc, row), '', ...facts(row)])}\n${signature(row)}`);
  return [
    "import type * as T from '@gw/types';",
    "import type { CallOptions, CheckoutResult } from '../call-operation.ts';",
    "import type { Guarded, GuardedCall } from '../guarded-call.ts';",
    "import type { QueryInput } from '../query-selection.ts';",
    "import type { RequestInput } from '../request-input.ts';",
    '',
    '/** One method per client-level operation of the spec (its `x-gw-variants`), in the order of the spec. */',
    'export interface OperationMethods {',
    methods.join('\n'),
    '}',
  ].join('\n');
}
