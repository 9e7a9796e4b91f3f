// Bundles the cold scan's worker thread (src/core/importers/scan-worker.ts) into one CommonJS file,
// scan-worker.cjs, which scan-pool.ts looks for next to the bundle that scans: dist/cli (the CLI,
// `baton serve`, the handoff/resume/show bundles) and out/main (the desktop app). Self-contained,
// so it does not depend on how either bundler splits the rest.
import { build } from 'esbuild';

/** The file name scan-pool.ts (SCAN_WORKER_FILE) looks for. */
export const SCAN_WORKER_FILE = 'scan-worker.cjs';

/** Writes the worker bundle to `outfile`, or returns its bytes when `outfile` is omitted. */
export async function buildScanWorker(outfile) {
  const result = await build({
    entryPoints: [new URL('../src/core/importers/scan-worker.ts', import.meta.url).pathname],
    ...(outfile ? { outfile } : { write: false, outfile: SCAN_WORKER_FILE }),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: true,
    logLevel: 'warning',
  });
  return outfile ? undefined : result.outputFiles[0].contents;
}
