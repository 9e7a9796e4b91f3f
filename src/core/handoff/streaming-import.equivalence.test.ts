import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStore } from '../store/index.js';
import { importAgentSession } from './import-agent-session.js';
import { offerSession } from './send.js';
import { transcriptCorpus, type Transcript } from '../importers/test-fixtures/transcript-corpus.js';

/**
 * Issue 20: `baton handoff --from claude|codex` converts the transcript as it streams into the
 * landing. It must land the same session files and manifest as the whole-array converter did: the
 * goldens (fixtures/import-goldens.json) were written by main's whole-array import before the
 * converters streamed (BATON_WRITE_GOLDENS=1). Ids and clocks are deterministic, and the
 * transcripts sit at fixed paths (the session id hashes the path).
 */
let counter = 0;
vi.mock('../../shared/ids.js', async (original) => ({
  ...(await original<typeof import('../../shared/ids.js')>()),
  newId: (prefix = '') => `${prefix}t-${counter++}`,
}));

const GOLDENS = join(import.meta.dirname, 'fixtures', 'import-goldens.json');
const CASES = 300;
const ROOT = join(tmpdir(), 'baton-import-equivalence');

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-30T12:00:00.000Z'));
  await rm(ROOT, { recursive: true, force: true });
});
afterAll(async () => {
  vi.useRealTimers();
  await rm(ROOT, { recursive: true, force: true });
});

interface Outcome {
  error?: string;
  files?: Record<string, string>;
  manifest?: string;
}

function transcriptPath(home: string, t: Transcript): string {
  return t.source === 'claude'
    ? join(home, '.claude', 'projects', '-nonexistent-baton-corpus', `${t.name}.jsonl`)
    : join(home, '.codex', 'sessions', '2026', '11', '30', `rollout-2026-11-30T10-00-00-${t.name}.jsonl`);
}

/** `baton handoff --from TOOL --session FILE --dry-run` through the same core calls. */
async function importCase(t: Transcript): Promise<Outcome> {
  const dir = join(ROOT, t.name);
  const home = join(dir, 'home');
  const path = transcriptPath(home, t);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, t.text);
  const store = await openStore(join(dir, 'data'));
  try {
    let imported;
    try {
      imported = await importAgentSession(store, t.source, path, { HOME: home });
    } catch (error) {
      return { error: normalise((error as Error).message, dir) };
    }
    expect(imported.created).toBe(true);
    const outcome = await offerSession(imported.session.id, { store, endpoint: { transport: 'unix', path: join(dir, 'nobody.sock') } as never, token: Buffer.alloc(32), timeoutMs: 1_000, launch: false, dryRun: true }, imported.landed);
    const manifest = (outcome.answer as { manifest: Record<string, unknown> }).manifest;
    const sessionDir = store.sessionDir(imported.session.id);
    const files: Record<string, string> = {};
    for (const entry of await readdir(sessionDir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const full = join(entry.parentPath, entry.name);
      files[full.slice(sessionDir.length + 1).replace(/[0-9a-f]{64}/, (h) => h.slice(0, 16))] = sha256(normalise(await readFile(full, 'utf8'), dir));
    }
    return { files, manifest: sha256(normalise(JSON.stringify(manifest), dir)) };
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The process id and the host name are the only things that differ between runs. */
function normalise(text: string, dir: string): string {
  return text.split(dir).join('<dir>').replace(/"pid": ?\d+/g, '"pid":0').split(JSON.stringify(hostname())).join('""');
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

describe('the streaming import against the whole-array goldens', () => {
  it(`imports ${CASES} generated Claude Code and Codex transcripts byte for byte as the whole-array converter did`, { timeout: 600_000 }, async () => {
    const results: Record<string, Outcome> = {};
    for (const t of transcriptCorpus(CASES)) {
      counter = 0;
      results[t.name] = await importCase(t);
    }
    if (process.env.BATON_WRITE_GOLDENS === '1') await writeFile(GOLDENS, `${JSON.stringify(results, null, 1)}\n`);
    const goldens = JSON.parse(await readFile(GOLDENS, 'utf8')) as Record<string, Outcome>;
    // The corpus must reach the cases that matter, or equality proves little.
    const values = Object.values(goldens);
    expect(values.filter((o) => o.files).length).toBeGreaterThan(CASES * 0.9);
    expect(values.filter((o) => o.files && Object.keys(o.files).some((f) => f.endsWith('.txt'))).length).toBeGreaterThan(10);
    expect(values.filter((o) => o.files && 'messages.checkpoint.json' in o.files).length).toBeGreaterThan(0);
    expect(Object.keys(goldens)).toHaveLength(CASES);
    for (const [name, golden] of Object.entries(goldens)) expect({ name, ...results[name] }).toEqual({ name, ...golden });
  });
});
