import { defineConfig } from 'vitest/config';

/** Shared vitest settings: tests run against sources through the `@gw/source` export condition. */
export default defineConfig({
  resolve: { conditions: ['@gw/source'] },
  ssr: { resolve: { conditions: ['@gw/source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
