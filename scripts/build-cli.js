#!/usr/bin/env node
// Bundles the `baton` CLI (and `baton serve`) into one ES module, dist/cli/baton.js: one file to
// load instead of a few hundred keeps a handoff's Node start-up short (bench/handoff/cli-process.ts).
// Type-checking is `npm run typecheck`; this step only transpiles.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/cli/run.ts'],
  // Two levels below the repo root, like src/server: out/renderer is found the same way.
  outdir: 'dist/cli',
  entryNames: 'baton',
  chunkNames: 'chunks/[name]-[hash]',
  // Each command is its own chunk, loaded when it runs.
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  sourcemap: 'linked',
  // ws loads these optional native speed-ups only when installed.
  external: ['bufferutil', 'utf-8-validate', 'electron'],
  // CommonJS dependencies (commander, ws) call require() for Node built-ins.
  banner: { js: "import { createRequire as __batonRequire } from 'node:module'; const require = __batonRequire(import.meta.url);" },
  logLevel: 'warning',
});
