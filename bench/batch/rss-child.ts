// Streams 100,000 orders from a JSONL file through runBatch (journal on, outcomes not kept) and reports RSS growth.
import { createClient } from '@gw/client';
import { ordersFromJsonl, runBatch, type BatchClient } from '@gw/batch';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';

const [url, file, journal] = process.argv.slice(2) as [string, string, string];
const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
const client = createClient({
  baseUrl: url,
  merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId,
  accountId: SANDBOX_DEFAULT_MERCHANT.accountId,
  signer,
  verifier: signer,
}) as unknown as BatchClient;
globalThis.gc?.();
const base = process.memoryUsage().rss;
let peak = base;
const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
const result = await runBatch({ client, operation: 'capture', orders: ordersFromJsonl(file), concurrency: 4, journal, keepOutcomes: false });
clearInterval(timer);
peak = Math.max(peak, process.memoryUsage().rss);
console.log(JSON.stringify({ base, peak, growthMb: (peak - base) / 2 ** 20, counts: result.counts, seconds: result.durationMs / 1000 }));
