// Issue 37, item 5: whatever a HAR holds, checkHar gives a normal check or a GW_DECODE error naming places, never a crash.
import { GwError } from '@gw/types';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkHar } from '../src/index.ts';

const CARD = '4111111111111111';

/** A well-formed one-entry HAR of a capture, JSON both ways. */
function goodHar(): Record<string, unknown> {
  return {
    log: {
      entries: [
        {
          startedDateTime: '2026-03-04T05:06:07Z',
          time: 12,
          request: {
            method: 'POST',
            url: 'https://gw.example/v1/capture',
            headers: [{ name: 'content-type', value: 'application/json' }],
            postData: { mimeType: 'application/json', text: '{"capture_orders":[]}', params: [{ name: 'a', value: 'b' }] },
          },
          response: {
            status: 200,
            headers: [{ name: 'content-type', value: 'application/json' }],
            content: { size: 2, mimeType: 'application/json', text: '{}', encoding: 'utf8' },
          },
        },
      ],
    },
  };
}

/** Every place of goodHar() (as paths of names and indexes), where the fuzz puts an arbitrary JSON value. */
function places(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [at];
  const members = Array.isArray(value) ? value.map((item, i) => [i, item] as const) : Object.entries(value);
  return [at, ...members.flatMap(([name, member]) => places(member, [...at, name]))];
}

function withValueAt(har: Record<string, unknown>, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  let target = har as Record<string | number, unknown>;
  for (const name of path.slice(0, -1)) target = target[name] as Record<string | number, unknown>;
  target[path.at(-1)!] = value;
  return har;
}

/** A check either runs, or fails with the typed decode error whose message holds no digit run from the input. */
async function typedOrChecked(har: unknown): Promise<void> {
  try {
    const { report } = await checkHar(har);
    expect(report.type).toBe('gw-drift-report');
  } catch (error) {
    expect(error).toBeInstanceOf(GwError);
    expect((error as GwError).code).toBe('GW_DECODE');
    expect((error as GwError).message).not.toMatch(/\d{5,}/);
  }
}

describe('checkHar on malformed recordings', () => {
  const PLACES = places(goodHar());

  it('an arbitrary JSON value at any place of a HAR gives a check or a GW_DECODE error, never another failure', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PLACES), fc.jsonValue({ maxDepth: 3 }), async (path, value) => {
        await typedOrChecked(withValueAt(goodHar(), path, value));
      }),
      { numRuns: 600 },
    );
  });

  it("the issue's case: a params entry whose name is an object with a toString member names its place", async () => {
    const har = goodHar() as { log: { entries: { request: { postData: Record<string, unknown> } }[] } };
    har.log.entries[0]!.request.postData = { mimeType: 'application/x-www-form-urlencoded', params: [{ name: { toString: 1 }, value: CARD }] };
    const failure = await checkHar(har).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(GwError);
    expect((failure as GwError).code).toBe('GW_DECODE');
    expect((failure as GwError).message).toContain('log.entries[0].request.postData.params[0].name: is not a string');
    expect((failure as GwError).message).not.toContain(CARD);
  });

  it('arbitrary parsed JSON as a whole recording, and arbitrary entries, give a check or a GW_DECODE error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (value) => {
        await typedOrChecked(value);
        await typedOrChecked({ log: { entries: [value] } });
        await typedOrChecked({ log: { entries: Array.isArray(value) ? value : [value] } });
      }),
      { numRuns: 400 },
    );
  });
});
