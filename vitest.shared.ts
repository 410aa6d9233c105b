import { defineConfig } from 'vitest/config';

/**
 * Shared vitest settings: tests run against sources through the `@gw/source` export condition. `isolate: false`: a
 * package's test files share one worker process (vitest runs one on CI's two cores) instead of a fresh one per file,
 * which cost ~0.3-1 s of start-up and module loading per file, twice per file (Node 24 and 22). Every package's suite
 * passes with its files in shuffled order (`vitest run --sequence.shuffle`); a test file must leave no global state
 * behind (no `vi.mock`, stubbed globals or environment variables without restoring them).
 */
export default defineConfig({
  resolve: { conditions: ['@gw/source'] },
  ssr: { resolve: { conditions: ['@gw/source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    isolate: false,
  },
});
