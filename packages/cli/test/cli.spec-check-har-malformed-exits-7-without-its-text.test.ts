// Issue 37, item 5: gw spec check --har on a malformed recording: a typed decode error (exit 7) naming the place,
// never the recording's text, never an unexpected failure.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gw } from './io.ts';

const CARD = '4111111111111111';

function harWithParams(params: unknown): unknown {
  const request = { method: 'POST', url: 'https://gw.example/v1/authorise', headers: [], postData: { mimeType: 'application/x-www-form-urlencoded', params } };
  return {
    log: {
      entries: [{ startedDateTime: '2026-03-04T05:06:07Z', request, response: { status: 200, headers: [], content: { size: 0, mimeType: 'text/xml' } } }],
    },
  };
}

async function checkText(dir: string, text: string): Promise<{ status: number; out: string; err: string }> {
  await writeFile(join(dir, 'rec.har'), text);
  return gw(['spec', 'check', '--har', 'rec.har'], { cwd: dir });
}

describe('gw spec check --har on a malformed recording', () => {
  it("a params entry named by an object is a decode error naming its place: exit 7, not 'unexpected failure'", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gw-cli-har-bad-'));
    const run = await checkText(dir, JSON.stringify(harWithParams([{ name: { toString: 1 }, value: CARD }])));
    expect(run.status).toBe(7);
    expect(run.err).toContain('log.entries[0].request.postData.params[0].name: is not a string');
    expect(run.err + run.out).not.toContain('unexpected failure');
    expect(run.err + run.out).not.toContain(CARD);
  });

  it('a recording that is not JSON is a decode error holding no run of its digits', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gw-cli-har-bad-'));
    const run = await checkText(dir, `{"log":{"entries":[${CARD},]}`);
    expect(run.status).toBe(7);
    expect(run.err).toContain('rec.har is not JSON');
    expect(run.err + run.out).not.toMatch(/\d{4,}/);
  });

  it('arbitrary text, and arbitrary JSON where the params go, exit 7 or check normally (0 or 13), never 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gw-cli-har-bad-'));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(harWithParams(v))),
        ),
        async (text) => {
          const run = await checkText(dir, text);
          expect([0, 7, 13]).toContain(run.status);
          expect(run.err).not.toContain('unexpected failure');
        },
      ),
      { numRuns: 150 },
    );
    const withDigits = await checkText(dir, `[${CARD.slice(0, 8)} ${CARD.slice(8)}`);
    expect(withDigits.status).toBe(7);
    expect(withDigits.err).not.toMatch(/\d{4,}/);
  }, 60_000);
});
