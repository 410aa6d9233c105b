// Bytes allocated on the JS heap per call: the heap's used size before and after batches too small to trigger a
// collection (a batch during which one ran shows a drop and is dropped), median over many batches.
import { getHeapStatistics } from 'node:v8';

/** Median bytes allocated per call of `step(i)` (awaited when it returns a promise), i running over 0..count-1. */
export async function heapBytesPerCall(step: (i: number) => unknown, count: number, batch = 32, batches = 400): Promise<number> {
  const samples: number[] = [];
  let sink: unknown;
  for (let round = 0; round < batches; round++) {
    const from = (round * batch) % count;
    const before = getHeapStatistics().used_heap_size;
    for (let k = 0; k < batch; k++) {
      sink = step((from + k) % count);
      if (sink instanceof Promise) await sink;
    }
    const after = getHeapStatistics().used_heap_size;
    if (after > before) samples.push((after - before) / batch);
  }
  void sink;
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] ?? Number.NaN;
}
