import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordValidator, operations, type OperationName } from '../src/index.ts';

const dir = join(import.meta.dirname, '../../../spec/v1/examples');
const validator = new RecordValidator();
const names = Object.keys(operations) as OperationName[];
const read = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8'));

// The wire forms of the operations whose bodies are not JSON; the codec's tests decode them and compare.
const WIRE_FORMS = [
  'authoriseCard.response.xml',
  'authoriseAlternative.response.xml',
  'cancelSubscription.request.xml',
  'checkout.response.html',
  'query.request.form',
];

describe('spec/v1/examples', () => {
  it.each(names)('%s has a request example valid against its request schema', (name) => {
    expect(validator.problems(operations[name].requestSchema, read(`${name}.request.json`))).toEqual([]);
  });

  it.each(names)('%s has a response example valid against its response schema', (name) => {
    expect(validator.problems(operations[name].responseSchema, read(`${name}.response.json`))).toEqual([]);
  });

  it('has the wire forms of the non-JSON bodies and nothing unexpected', () => {
    for (const file of WIRE_FORMS) expect(existsSync(join(dir, file)), file).toBe(true);
    const expected = new Set([...names.flatMap((n) => [`${n}.request.json`, `${n}.response.json`]), ...WIRE_FORMS]);
    expect(readdirSync(dir).filter((f) => !expected.has(f) && f !== 'README.md')).toEqual([]);
  });

  it('has a form-encoded query body that decodes to the query request example', () => {
    const form = Object.fromEntries(new URLSearchParams(readFileSync(join(dir, 'query.request.form'), 'utf8')));
    expect(form).toEqual(read('query.request.json'));
  });

  it('has batch examples within the limits and with a per-element status for every order', () => {
    for (const op of Object.values(operations)) {
      if (!op.batch || op.batch.separator) continue;
      const request = read(`${op.name}.request.json`);
      const response = read(`${op.name}.response.json`);
      expect(request[op.batch.array].length).toBeLessThanOrEqual(op.batch.limit);
      expect(response[op.batch.responseArray]).toHaveLength(request[op.batch.array].length);
      for (const element of response[op.batch.responseArray]) expect(element[op.batch.statusField]).toBeTypeOf('string');
    }
  });
});
