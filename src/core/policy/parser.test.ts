import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * The parser loads once, asynchronously; before it has, every shell command is high risk with the
 * reason "policy parser not loaded" (never low). Each case imports fresh module instances.
 */
afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('policy parser loading', () => {
  it('before initPolicy, a harmless command is high with "policy parser not loaded"; after, it is low', async () => {
    vi.resetModules();
    const { assessRisk, initPolicy, policyReady } = await import('./risk.js');
    const ctx = { cwd: '/w', workspaceRoot: '/w', home: '/h' };
    expect(policyReady()).toBe(false);
    const before = assessRisk({ tool: 'Bash', input: { command: 'ls' } }, ctx);
    expect(before).toEqual({ level: 'high', reasons: [expect.objectContaining({ rule: 'parser-not-loaded', message: expect.stringContaining('policy parser not loaded') })] });
    const first = initPolicy();
    expect(initPolicy()).toBe(first); // idempotent: one load per process
    await first;
    expect(assessRisk({ tool: 'Bash', input: { command: 'ls' } }, ctx).level).toBe('low');
  });

  it('a grammar that cannot load leaves the policy failing safe, and a later call retries', async () => {
    vi.resetModules();
    const dir = mkdtempSync(join(tmpdir(), 'baton-wasm-'));
    try {
      writeFileSync(join(dir, 'tree-sitter-bash.wasm'), 'not wasm');
      vi.stubEnv('BATON_POLICY_WASM_DIR', dir);
      const parser = await import('./parser.js');
      const { assessRisk } = await import('./risk.js');
      expect(parser.wasmCandidates('tree-sitter-bash.wasm')[0]).toBe(join(dir, 'tree-sitter-bash.wasm'));
      await expect(parser.initPolicy()).rejects.toThrow();
      expect(parser.policyReady()).toBe(false);
      expect(assessRisk({ tool: 'Bash', input: { command: 'ls' } }, { cwd: '/w', workspaceRoot: '/w' }).level).toBe('high');
      rmSync(join(dir, 'tree-sitter-bash.wasm'));
      await parser.initPolicy(); // the npm package is the next candidate
      expect(parser.policyReady()).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
