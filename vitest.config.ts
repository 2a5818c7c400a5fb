import { defineConfig } from 'vitest/config';

// Unit and integration tests: real SQLite files, real onnxruntime sessions, no browser.
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/scorer/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One initdb per run for the hub tests' throwaway PostgreSQL clusters; each file's cluster is a copy.
    globalSetup: ['test/helpers/postgresTemplates.ts'],
  },
});
