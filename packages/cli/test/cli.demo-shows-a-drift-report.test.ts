import { startSandbox } from '@gw/sandbox';
import { describe, expect, it } from 'vitest';
import { runDemo } from '../src/demo/run-demo.ts';
import { capturedIo } from './io.ts';

describe('gw demo', () => {
  it('shows one drift report: gw proxy in front of the sandbox switched to drift, the summary of what it found', async () => {
    await using sandbox = await startSandbox({ seed: 7 });
    const c = capturedIo();
    expect(await runDemo(c.io, { sandbox, orders: 1 })).toBe(true);
    const text = c.out();
    const step = text.slice(text.indexOf('== drift report: gw proxy in front of a sandbox told to drift'), text.indexOf('== batch capture'));
    expect(step).toMatch(/exchanges checked\s+3 \(signatures verified\)/);
    expect(step).toMatch(/capture response unknown-field settlement_window\s+1x, e\.g\. "T\+1"/);
    // The query of the captured order answers the sandbox's own 3001, which the spec lists (U28, U56): not drift.
    expect(step).not.toContain('payment_status');
    expect(step).toMatch(/kinds of drift\s+1/);
    expect(step).toMatch(/the client\s+accepted and reported through onAnswerDrift \(answers: 'report'\): capture settlement_window/);
    expect(step).not.toContain('4111111111111111');
    // Switched off again: the demo's later steps and the sandbox answer as the spec says.
    expect(await (await fetch(`${sandbox.url}/sandbox/api/drift`)).json()).toEqual({ rules: {} });
  }, 30_000);
});
