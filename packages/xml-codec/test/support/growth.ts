// Test helper: how a function's run time grows with its input, as a ratio of medians (never an absolute time).

function medianMs(run: () => void, times: number): number {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    run();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

/**
 * time(input of size 4n) / time(input of size n): about 4 for a linear decoder, about 16 for a quadratic one. Each
 * sample of the small input decodes it 4 times, so both sizes do the same amount of work per sample (same garbage, same
 * timer granularity); medians of `runs` samples, the two sizes interleaved over two rounds, the best kept.
 */
export function growthRatio<T>(make: (n: number) => T, decode: (input: T) => unknown, n: number, runs = 3): number {
  const smallInput = make(n);
  const largeInput = make(4 * n);
  decode(smallInput);
  decode(largeInput);
  let small = Infinity;
  let large = Infinity;
  for (let round = 0; round < 2; round++) {
    small = Math.min(
      small,
      medianMs(() => {
        for (let i = 0; i < 4; i++) decode(smallInput);
      }, runs) / 4,
    );
    large = Math.min(
      large,
      medianMs(() => decode(largeInput), runs),
    );
  }
  return large / small;
}
