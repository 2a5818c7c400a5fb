import { defineConfig } from 'vitest/config';

// End-to-end: the built app served by the browser host, driven in Debian's Chromium.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
