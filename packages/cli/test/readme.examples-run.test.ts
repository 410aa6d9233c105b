// Every command in the README's example block runs as written (against a sandbox and scratch files), on the Node.js
// running the tests: 24 here, 22 in the repository's test:node22 run.
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, startSandbox, type Sandbox } from '@gw/sandbox';
import { exampleScratch, readmeBlocks, readmeExamples, until } from '@gw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/index.ts';
import { capturedIo } from './io.ts';
import { authorisedOrdersFile } from './sandbox-harness.ts';

const block = readmeBlocks(join(import.meta.dirname, '../README.md'), 'sh')[0] ?? '';
const lines = block
  .split('\n')
  .map((line) => line.replace(/\s+#.*$/, '').trim())
  .filter((line) => line.length > 0);
const examples = join(import.meta.dirname, '../../../spec/v1/examples');

/** Splits a shell line into words (single quotes only, as the README uses). */
function words(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

let sandbox: Sandbox;
let dir: string;
beforeAll(async () => {
  sandbox = await startSandbox();
  dir = mkdtempSync(join(tmpdir(), 'gw-cli-readme-'));
  const orders = await authorisedOrdersFile(sandbox, join(dir, 'orders.csv'), 5, { prefix: 'README', amount: '3.00' });
  writeFileSync(join(dir, 'query.json'), JSON.stringify({ order_no: orders[0]!.order_no }));
  writeFileSync(
    join(dir, 'gw.config.json'),
    JSON.stringify({
      baseUrl: sandbox.url,
      merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId,
      accountId: SANDBOX_DEFAULT_MERCHANT.accountId,
      secret: SANDBOX_DEFAULT_SECRET,
    }),
  );
  copyFileSync(join(examples, 'authoriseCard.response.xml'), join(dir, 'answer.xml'));
  copyFileSync(join(examples, 'checkout.response.html'), join(dir, 'page.html'));
});
afterAll(() => sandbox.stop());

describe('README examples', () => {
  it('cover every command', () => {
    for (const command of ['gw demo', 'gw sandbox', 'gw call', 'gw batch', '--resume', 'gw decode respon', 'gw decode checkout'])
      expect(block).toContain(command);
  });

  it.each(lines.map((line, i) => [i, line] as const))(
    'line %i runs and exits 0: %s',
    async (_, line) => {
      const [input, command] = line.includes('|') ? (line.split('|') as [string, string]) : [undefined, line];
      // The README's address of a local sandbox is this test's sandbox; `...` stands for the flags of the line before.
      let args = words(command.trim().replace(/http:\/\/127\.0\.0\.1:8787/g, sandbox.url)).slice(1);
      if (args.at(-1) === '...') args = [...args.slice(0, -1), '--base-url', sandbox.url, '--sandbox-defaults', '--reconcile', 'sandbox'];
      if (args[0] === 'sandbox') args = args.map((a) => (a === '8787' ? '0' : a));
      const c = capturedIo({ cwd: dir, ...(input ? { stdin: words(input.trim())[1]! } : {}) });
      const running = runCli(args, c.io, c.signals);
      if (args[0] === 'sandbox') {
        // gw sandbox runs until Ctrl-C: pressed once it listens (not at all if it has ended, as a failed start does).
        let ended = false;
        void running.then(
          () => (ended = true),
          () => (ended = true),
        );
        await until(() => ended || /listening on http:/.test(c.out()), 10_000, 'gw sandbox to listen');
        if (!ended) c.signals.emit('SIGINT');
      }
      const status = await running;
      expect(c.err(), c.out()).not.toContain('unexpected failure');
      expect(status, c.err()).toBe(0);
    },
    60_000,
  );
});

// The ts examples (the Telemetry section) run `gw` as installed: bin/gw.js and its bundle (`pnpm build` first).
const scratch = exampleScratch(new URL('..', import.meta.url));
afterAll(() => scratch.remove());

describe('README ts examples', () => {
  it('show the telemetry of gw', () => {
    expect(readmeExamples(join(import.meta.dirname, '../README.md')).some((code) => code.includes('OTEL_EXPORTER_OTLP_ENDPOINT'))).toBe(true);
  });

  it.each(readmeExamples(join(import.meta.dirname, '../README.md')).map((code, i) => [i, code] as const))(
    'example %i runs and its assertions hold',
    async (i, code) => {
      await scratch.run(`example-${i}.ts`, code);
    },
    60_000,
  );
});
