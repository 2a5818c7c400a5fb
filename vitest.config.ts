import { defineConfig } from 'vitest/config';

// Unit and integration tests: real SQLite files, real onnxruntime sessions, no browser.
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/scorer/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
