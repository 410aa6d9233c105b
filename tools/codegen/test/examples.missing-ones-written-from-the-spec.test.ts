import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { missingExamples, writeMissingExamples } from '../src/example-files.ts';
import { generate } from '../src/generate.ts';
import { buildSpecSchemas } from '../src/tables.ts';
import { signedJsonOperation } from './support/new-operation.ts';

const repoRoot = join(import.meta.dirname, '../../..');
const main = join(repoRoot, 'tools/codegen/src/main.ts');

// A team's new operation: members with their own examples, one through a shared schema, one with only a format.
function addRateOperation(doc: any, mediaExample?: Record<string, unknown>): void {
  doc.components.schemas.RateRequest = {
    type: 'object',
    properties: {
      merchant_id: { type: 'string' },
      encryption_data: { type: 'string' },
      currency: { $ref: '#/components/schemas/CurrencyCode' },
      on: { type: 'string', format: 'date' },
    },
    required: ['currency'],
    additionalProperties: false,
  };
  doc.components.schemas.RateResponse = {
    type: 'object',
    properties: {
      return_status: { type: 'string', examples: ['1'] },
      rate: { type: 'string', examples: ['1.0842'] },
      fee: { $ref: '#/components/schemas/Amount2dp' },
      checked_at: { type: 'string', format: 'date-time' },
      source: { type: 'object', properties: { name: { type: 'string', examples: ['ECB'] }, url: { type: 'string', format: 'uri' } } },
      note: { type: 'string' },
      encryption_data: { type: 'string' },
    },
  };
  const content = (schema: string, example?: unknown) => ({
    'application/json': { schema: { $ref: `#/components/schemas/${schema}` }, ...(example ? { example } : {}) },
  });
  doc.paths['/v1/rate'] = {
    post: {
      operationId: 'rate',
      summary: 'Read an exchange rate',
      ...signedJsonOperation('safe', { name: 'rate', request: 'RateRequest', response: 'RateResponse' }),
      requestBody: { required: true, content: content('RateRequest') },
      responses: { '200': { description: 'The rate.', content: content('RateResponse', mediaExample) } },
    },
  };
}

describe('pnpm generate and the example of every operation', () => {
  let dir: string;
  let specPath: string;
  const write = (mediaExample?: Record<string, unknown>) => {
    const doc = parse(readFileSync(join(repoRoot, 'spec/v1/openapi.yaml'), 'utf8'));
    addRateOperation(doc, mediaExample);
    writeFileSync(specPath, stringify(doc, { lineWidth: 0 }));
    return doc;
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-examples-'));
    cpSync(join(repoRoot, 'spec/v1'), join(dir, 'spec/v1'), { recursive: true });
    specPath = join(dir, 'spec/v1/openapi.yaml');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('the committed spec lacks no example', () => {
    expect(missingExamples(join(repoRoot, 'spec/v1/openapi.yaml'))).toEqual([]);
  });

  it('a new operation gets a request and an answer built from the spec, valid against its schemas', () => {
    const doc = write();
    const written = writeMissingExamples(specPath);
    expect(written.map((path) => path.slice(dir.length + 1))).toEqual(['spec/v1/examples/rate.request.json', 'spec/v1/examples/rate.response.json']);
    const request = JSON.parse(readFileSync(written[0]!, 'utf8'));
    const response = JSON.parse(readFileSync(written[1]!, 'utf8'));
    // Own examples, a shared schema's example, a value for the format; a member the spec shows nothing for is left out.
    expect(request).toEqual({ currency: 'USD', on: '2026-01-01' });
    expect(response).toEqual({
      return_status: '1',
      rate: '1.0842',
      fee: '10.00',
      checked_at: '2026-01-01T12:00:00Z',
      source: { name: 'ECB', url: 'https://example.com/' },
    });
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema(buildSpecSchemas(doc), 'spec');
    for (const [schema, value] of [
      ['RateRequest', request],
      ['RateResponse', response],
    ] as const) {
      expect(ajv.validate({ $ref: `https://gw.local/spec/v1/schemas.json#/$defs/${schema}` }, value), JSON.stringify(ajv.errors)).toBe(true);
    }
  });

  it("the operation's media-type example comes first; the members it lacks come from the schema", () => {
    write({ rate: '0.9231', fee: '0.25' });
    writeMissingExamples(specPath);
    expect(JSON.parse(readFileSync(join(dir, 'spec/v1/examples/rate.response.json'), 'utf8'))).toMatchObject({
      rate: '0.9231',
      fee: '0.25',
      return_status: '1',
      checked_at: '2026-01-01T12:00:00Z',
    });
  });

  it('generate --check names a missing example; generate writes it, says so, and never overwrites one a person refined', async () => {
    write();
    const check = spawnSync(process.execPath, [main, '--check', '--spec', specPath, '--out', dir], { encoding: 'utf8' });
    expect(check.status).toBe(1);
    expect(check.stderr).toMatch(/missing example: .*spec\/v1\/examples\/rate\.request\.json/);
    const run = spawnSync(process.execPath, [main, '--spec', specPath, '--out', dir], { encoding: 'utf8', cwd: dir });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('generate: wrote spec/v1/examples/rate.response.json from the spec');
    const refined = join(dir, 'spec/v1/examples/rate.response.json');
    writeFileSync(refined, JSON.stringify({ return_status: '1', rate: '1.1111' }));
    expect(writeMissingExamples(specPath)).toEqual([]);
    expect(JSON.parse(readFileSync(refined, 'utf8'))).toEqual({ return_status: '1', rate: '1.1111' });
    // The sandbox's answer example is the refined file, its missing members completed from the schema.
    const table = (await generate(specPath)).get('packages/sandbox/src/generated/answer-examples.gen.ts')!;
    expect(table).toMatch(/"rate": \{\s*"return_status": "1",\s*"rate": "1.1111",\s*"fee": "10.00"/);
  }, 60_000);
});
