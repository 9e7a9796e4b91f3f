import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.js'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Crash and socket suites spawn real child processes; two cores here.
    pool: 'forks',
    // electron-store imports `electron` at load: inlined, it sees the test's fake electron (src/main/test-support).
    server: { deps: { inline: ['electron-store'] } },
  },
});
