import { build, type Metafile } from 'esbuild';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * What `baton serve` evaluates before it prints its address, read from esbuild's own module
 * graph (the CLI bundle is built by esbuild: a static import is evaluated with its importer, a
 * dynamic one when it is called). Issue 15: a new host's address waited for the evaluation of the
 * host services' whole graph (532 modules: the UI contract, the store, the importers, the relay client).
 */
const ROOT = join(import.meta.dirname, '..', '..');

async function staticGraph(entry: string): Promise<Set<string>> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'cjs',
    outfile: join(ROOT, 'out', 'serve-graph.cjs'),
    external: ['bufferutil', 'utf-8-validate', 'electron', '@napi-rs/keyring'],
    alias: { 'web-tree-sitter': './node_modules/web-tree-sitter/tree-sitter.cjs' },
    logLevel: 'silent',
  });
  const inputs: Metafile['inputs'] = result.metafile.inputs;
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const imported of inputs[file]?.imports ?? []) if (imported.kind !== 'dynamic-import' && !imported.external) pending.push(imported.path);
  }
  return seen;
}

/**
 * A coarse backstop behind the named modules below, not a budget: serve's graph before its address
 * is 141 modules here (December 2026) and the host services' own static graph 423, so a static
 * import that brings most of the services back before the address crosses this bound, while
 * ordinary growth of the page's server and the endpoint (up to ~160 more modules) does not. The
 * named modules are the real check; raise this if the pre-address code legitimately grows.
 */
const MAX_MODULES_BEFORE_ADDRESS = 300;

describe('modules evaluated at a host start', () => {
  it('baton serve: the page\'s server and the receiver\'s endpoint before its address, not the host services or the UI contract', async () => {
    const graph = [...(await staticGraph('src/cli/commands/serve.ts'))];
    expect(graph).toContain('src/server/browser-host.ts');
    expect(graph).toContain('src/core/transport/server.ts');
    expect(graph).not.toContain('src/core/host/host-services.ts');
    expect(graph).not.toContain('src/shared/ui-contract.ts');
    expect(graph).not.toContain('src/core/store/session-store.ts');
    expect(graph.length).toBeLessThan(MAX_MODULES_BEFORE_ADDRESS);
  }, 60_000);

  it('host services: no relay client (nats, tweetnacl) unless a relay is configured', async () => {
    const graph = [...(await staticGraph('src/core/host/host-services.ts'))];
    expect(graph).toContain('src/core/relay/start-configured-relay.ts');
    expect(graph.filter((file) => file.includes('node_modules/@nats-io/') || file.includes('node_modules/tweetnacl/'))).toEqual([]);
  }, 60_000);
});
