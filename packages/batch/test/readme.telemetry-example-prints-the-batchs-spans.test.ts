// The README's Telemetry example runs as written: the SDK registered with console exporters, a capture batch against
// the sandbox, and the batch's spans printed (the run's last, with its counts) and its metric points.
import { exampleScratch, readmeBlocks } from '@gw/test-support';
import { afterAll, describe, expect, it, vi } from 'vitest';

const scratch = exampleScratch(new URL('..', import.meta.url));
afterAll(() => scratch.remove());

/** The example of the README's Telemetry section. */
function telemetryExample(): string {
  const examples = readmeBlocks(new URL('../README.md', import.meta.url)).filter((code) => code.includes('ConsoleSpanExporter'));
  expect(examples).toHaveLength(1);
  return examples[0]!;
}

describe('the README Telemetry example', () => {
  it('prints the batch spans, the run last with its counts, and the counts by outcome', async () => {
    const printed: unknown[] = [];
    const dir = vi.spyOn(console, 'dir').mockImplementation((item) => void printed.push(item));
    try {
      const { logged } = await scratch.run('telemetry-example.ts', telemetryExample());
      expect(logged[0]).toEqual([{ succeeded: 2, failed: 0, rejected: 0, unknown: 0 }]);
    } finally {
      dir.mockRestore();
    }
    const spans = printed.filter(
      (p): p is { name: string; attributes: Record<string, unknown> } => typeof (p as { name?: unknown }).name === 'string' && 'attributes' in (p as object),
    );
    const names = spans.map((s) => s.name);
    expect(names.at(-1)).toBe('gw.batch capture');
    expect(names).toEqual(expect.arrayContaining(['gw.batch.step', 'gw.batch.send', 'gw.batch.settle', 'gw.batch.chunk', 'gw.batch capture']));
    expect(spans.find((s) => s.name === 'gw.batch capture')!.attributes).toMatchObject({ 'gw.batch.succeeded': 2, 'gw.batch.store': 'memory' });
    expect(JSON.stringify(printed)).toContain('gw.batch.orders');
    expect(JSON.stringify(printed)).not.toContain('4111111111111111');
  });
});
