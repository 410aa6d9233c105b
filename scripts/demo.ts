// The demo that the README's first command runs. Today it shows what the foundation gives: the operation table read
// from spec/v1/openapi.yaml, every spec example validated, and one bad request refused with every problem named.
// When @gw/sandbox, @gw/client and @gw/cli land, this becomes `gw demo` (the embedded sandbox and every operation).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RecordValidator, ValidationError, operations, specManifest } from '@gw/types';

const examples = join(import.meta.dirname, '../spec/v1/examples');
const validator = new RecordValidator();

console.log(`gw demo: ${specManifest.title} ${specManifest.version} (spec sha256 ${specManifest.specSha256.slice(0, 12)})\n`);
const rows = Object.values(operations).map((op) => {
  const file = join(examples, `${op.name}.request.json`);
  const example = existsSync(file) ? validator.requestProblems(op.name, JSON.parse(readFileSync(file, 'utf8'))) : null;
  return {
    operation: op.name,
    path: op.path,
    encoding: `${op.requestEncoding} -> ${op.responseEncoding}`,
    limit: op.batch ? String(op.batch.limit) : '',
    retry: op.retryClass,
    example: example === null ? 'none' : example.length === 0 ? 'valid' : `${example.length} problems`,
  };
});
console.table(rows);

try {
  validator.assertRequest('capture', {
    capture_orders: Array.from({ length: 51 }, (_, i) => ({ transaction_id: `T${i}`, order_no: `O${i}`, currency: 'usd', amount: i === 0 ? '12.345' : '1.00' })),
  });
} catch (error) {
  if (!(error instanceof ValidationError)) throw error;
  console.log(`\nA capture of 51 orders with a bad amount and currencies is refused before sending (${error.code}):`);
  for (const problem of error.details.problems.slice(0, 5)) console.log(`  - ${problem.field}: ${problem.message}`);
  console.log(`  (${error.details.problems.length} problems in all)`);
}
const failed = rows.filter((r) => r.example !== 'valid' && r.example !== 'none');
if (failed.length > 0) process.exit(1);
