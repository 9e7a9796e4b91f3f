import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { buildScanWorker, SCAN_WORKER_FILE } from './scripts/build-scan-worker.js';

// The risk policy's bash grammar (src/core/policy/parser.ts looks for it next to the main bundle).
const policyWasm = {
  name: 'baton-policy-wasm',
  generateBundle(this: { emitFile(file: { type: 'asset'; fileName: string; source: Uint8Array }): string }) {
    for (const [fileName, path] of [['tree-sitter.wasm', 'node_modules/web-tree-sitter/tree-sitter.wasm'], ['tree-sitter-bash.wasm', 'node_modules/tree-sitter-bash/tree-sitter-bash.wasm']] as const) {
      this.emitFile({ type: 'asset', fileName, source: readFileSync(resolve(path)) });
    }
  },
};

// The cold scan's worker thread, self-contained next to the main bundle (src/core/importers/scan-pool.ts looks for it there).
const scanWorker = {
  name: 'baton-scan-worker',
  async generateBundle(this: { emitFile(file: { type: 'asset'; fileName: string; source: Uint8Array }): string }) {
    this.emitFile({ type: 'asset', fileName: SCAN_WORKER_FILE, source: (await buildScanWorker())! });
  },
};

// Three bundles: the Electron main process, the sandboxed preload bridge and the React renderer.
// The browser host (`baton serve`) serves the same renderer bundle from out/renderer.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: { input: { index: resolve('src/main/index.ts') } },
    },
    plugins: [policyWasm, scanWorker],
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        // A sandboxed preload cannot load ES modules: emit CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('src/renderer'),
    base: './',
    build: {
      outDir: resolve('out/renderer'),
      minify: true,
      // Source maps for bench/renderer/page-profile.ts only (BATON_RENDERER_SOURCEMAP=1): never shipped.
      sourcemap: process.env.BATON_RENDERER_SOURCEMAP === '1',
      // Monaco and its language workers are large by nature and load only with the Changes tab.
      chunkSizeWarningLimit: 8 * 1024,
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
    plugins: [react()],
  },
});
