// Registered in vitest.config.ts `setupFiles`, so it runs before every test file. Renderer tests
// render whole React trees: on a loaded two-core CI run a first render took over the default
// second of findBy*/waitFor (App.test.tsx, two runs on 2026-12-01), so every wait allows five.
// Only DOM-environment files (`@vitest-environment happy-dom`) load testing-library at all; the
// node-environment suites skip the import. React testing-library's `configure` forwards to this one.
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/dom');
  configure({ asyncUtilTimeout: 5_000 });
}

export {};
