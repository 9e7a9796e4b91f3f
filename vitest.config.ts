import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.js'],
    environment: 'node',
    // Renderer tests' findBy*/waitFor allow 5 s (loaded CI); a no-op for node-environment files.
    setupFiles: ['src/renderer/src/test-support/testing-library-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Crash and socket suites spawn real child processes; two cores here.
    pool: 'forks',
    // Tests never reach the person's own keychain: a bus that does not exist, so stores are created
    // unencrypted unless a test starts its own Secret Service (at-rest/test-support/secret-service.ts).
    env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/baton-tests-have-no-session-bus' },
    // electron-store imports `electron` at load: inlined, it sees the test's fake electron (src/main/test-support).
    server: { deps: { inline: ['electron-store'] } },
  },
});
