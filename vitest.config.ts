import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Native addons (tree-sitter, sqlite3) and worker threads are safest in forked processes.
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
