#!/usr/bin/env node
// Installs the pinned agent CLIs (Claude Code, Codex) once per machine into a cache outside the
// repository, so the real-binary tests can drive them without making them app dependencies.
// Idempotent (a marker file per version set), guarded by a lock directory so parallel test
// set-ups do not clash, and a failed download exits non-zero: callers fail, never skip.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const AGENT_PINS = Object.freeze({
  '@anthropic-ai/claude-code': '2.1.328',
  '@openai/codex': '0.169.0'
});

/** Lock older than this is a crashed install: it is broken and retaken. */
const STALE_LOCK_MS = 15 * 60 * 1000;
const LOCK_POLL_MS = 500;

export function agentCacheDir(env = process.env) {
  const base = env.BATON_AGENT_CACHE || path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'baton-test-agents');
  const version = Object.entries(AGENT_PINS).map(([n, v]) => `${n.split('/')[1]}-${v}`).join('_');
  return path.join(base, version);
}

export function agentBinaries(dir = agentCacheDir()) {
  return {
    claude: path.join(dir, 'node_modules', '.bin', 'claude'),
    codex: path.join(dir, 'node_modules', '.bin', 'codex')
  };
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function takeLock(lockDir) {
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      return;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const age = Date.now() - fs.statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs;
      if (age > STALE_LOCK_MS) fs.rmSync(lockDir, { recursive: true, force: true });
      else sleep(LOCK_POLL_MS);
    }
  }
}

/** Ensures the cache holds the pinned CLIs; returns { dir, binaries, installedNow, ms }. */
export function ensureAgentCache(env = process.env) {
  const dir = agentCacheDir(env);
  const marker = path.join(dir, '.complete');
  const started = Date.now();
  if (fs.existsSync(marker)) return { dir, binaries: agentBinaries(dir), installedNow: false, ms: 0 };
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const lockDir = `${dir}.lock`;
  takeLock(lockDir);
  try {
    if (!fs.existsSync(marker)) {
      fs.mkdirSync(dir, { recursive: true });
      const specs = Object.entries(AGENT_PINS).map(([n, v]) => `${n}@${v}`);
      execFileSync('npm', ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', ...specs], {
        stdio: ['ignore', 'inherit', 'inherit']
      });
      for (const bin of Object.values(agentBinaries(dir))) {
        if (!fs.existsSync(bin)) throw new Error(`agent cache: ${bin} missing after npm install into ${dir}`);
      }
      fs.writeFileSync(marker, JSON.stringify({ pins: AGENT_PINS, ms: Date.now() - started }) + '\n');
    }
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
  return { dir, binaries: agentBinaries(dir), installedNow: true, ms: Date.now() - started };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  try {
    const result = ensureAgentCache();
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } catch (error) {
    process.stderr.write(`agent cache failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
