import { defineConfig } from 'vitest/config';

// Unit and integration tests: real SQLite files, real onnxruntime sessions, no browser.
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/scorer/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time. vitest's default is the cores less one: 1 on the 2-core CI machine, so every file
    // ran alone while most of them wait (PostgreSQL, child processes, task workers, disk). A whole run with 2
    // was green (211 files, 0 failed, 798 s at load 5-6); on the 32 hub and timing files, 318 -> 228 s.
    maxWorkers: 2,
    // One initdb per run for the hub tests' throwaway PostgreSQL clusters; each file's cluster is a copy.
    globalSetup: ['test/helpers/postgresTemplates.ts'],
  },
});
