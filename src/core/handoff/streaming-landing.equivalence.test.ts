import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStore } from '../store/index.js';
import { parseMessageFile } from './test-support/parse-message-file.js';
import { landAndReadBack, offerSession, type NewSessionRequest } from './send.js';
import { defaultTitle, fileSource, scanMessageFile, scanMessages, type InputScan } from './message-source.js';
import { landingCorpus } from './test-support/landing-corpus.js';

/**
 * Issue 20: the streaming landing must write the same log, session.json, artifacts and manifest as
 * the whole-array path did. The goldens (fixtures/landing-goldens.json) were written by the
 * whole-array path on main before the pipeline changed (BATON_WRITE_GOLDENS=1); ids and clocks are
 * made deterministic so the bytes can be compared. Their session.json entries (and its revision
 * copies) were recorded again when the permission rules and the first summary started landing with
 * the session (issue 20, eighth sitting: fewer rewrites, so fewer revisions); every other file and
 * every manifest is still the whole-array path's, checked unchanged when they were.
 */
let counter = 0;
vi.mock('../../shared/ids.js', async (original) => ({
  ...(await original<typeof import('../../shared/ids.js')>()),
  newId: (prefix = '') => `${prefix}t-${counter++}`,
}));

const GOLDENS = join(import.meta.dirname, 'fixtures', 'landing-goldens.json');
const CASES = 300;
const MODES = ['array', 'file', 'streamed-1'] as const;
type Mode = (typeof MODES)[number];
const TITLE_MAX_CHARS = 80;
let tmp: string;

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-30T12:00:00.000Z'));
  tmp = await mkdtemp(join(tmpdir(), 'baton-landing-eq-'));
});
afterAll(async () => {
  vi.useRealTimers();
  await rm(tmp, { recursive: true, force: true });
});

interface Outcome {
  error?: string;
  files?: Record<string, string>;
  manifest?: string;
}

function titleFrom(messages: { role: string; content: string }[]): string {
  const first = messages.find((m) => m.role === 'user')?.content.trim().split('\n')[0] ?? '';
  if (!first) return 'Untitled session';
  return first.length > TITLE_MAX_CHARS ? `${first.slice(0, TITLE_MAX_CHARS - 1)}…` : first;
}

/**
 * What `baton handoff --messages FILE --dry-run` does, through the same core calls: `file` as the
 * CLI does it (these files are under HELD_MESSAGES_FILE_MAX_BYTES: scanned once, the landing takes
 * the scanned messages), `streamed-1` as it does a bigger file (scanned, then read again as it
 * lands) with every message its own redaction batch, `array` with the messages parsed into memory
 * first (imports, stdin).
 */
async function handOffFile(dir: string, path: string, cwd: string, mode: Mode): Promise<Outcome> {
  const store = await openStore(join(dir, 'data'));
  try {
    let request: NewSessionRequest;
    if (mode === 'array') {
      const input = await parseMessageFile(path);
      if (!input.ok) return { error: normalise(input.message, dir) };
      request = { cwd, title: titleFrom(input.messages), messages: input.messages };
    } else if (mode === 'file') {
      const input = await scanMessageFile(path);
      if (!input.ok) return { error: normalise(input.message, dir) };
      request = { cwd, title: defaultTitle(input.scan), messages: input.source, scan: input.scan };
    } else {
      const source = fileSource(path);
      let scan: InputScan;
      try {
        scan = await scanMessages(source, { checkDepth: false, path });
      } catch (error) {
        return { error: normalise((error as Error).message, dir) };
      }
      request = { cwd, title: defaultTitle(scan), messages: source, scan, batchChars: 1 };
    }
    let landed;
    try {
      landed = await landAndReadBack(store, request);
    } catch (error) {
      return { error: normalise((error as Error).message, dir) };
    }
    const outcome = await offerSession(landed.session.id, { store, endpoint: { transport: 'unix', path: join(dir, 'nobody.sock') } as never, token: Buffer.alloc(32), timeoutMs: 1_000, launch: false, dryRun: true }, landed);
    const manifest = (outcome.answer as { manifest: Record<string, unknown> }).manifest;
    const sessionDir = store.sessionDir(landed.session.id);
    const files: Record<string, string> = {};
    for (const entry of await readdir(sessionDir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const full = join(entry.parentPath, entry.name);
      files[full.slice(sessionDir.length + 1).replace(/[0-9a-f]{64}/, (h) => h.slice(0, 16))] = sha256(normalise(await readFile(full, 'utf8'), dir));
    }
    return { files, manifest: normalise(JSON.stringify(manifest), dir) };
  } finally {
    await store.close();
  }
}

/**
 * Temp paths, the process id and the host name are the only things that differ between runs. The
 * goldens predate manifest 1.1 (issue 17: optional stored-bytes fields, never written for an
 * unencrypted store), so the version is read as the goldens' 1.0; any other change still shows.
 */
function normalise(text: string, dir: string): string {
  return text
    .split(dir)
    .join('<dir>')
    .replace(/("protocol_version": ?)"1\.1"/g, '$1"1.0"').replace(/"pid": ?\d+/g, '"pid":0').split(JSON.stringify(hostname())).join('""');
}

function sha256(text: string): string {
  // 16 hex digits are plenty to tell two files apart and keep the goldens small.
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

describe('the streaming landing against the whole-array goldens', () => {
  it.each(MODES)(`lands ${CASES} generated inputs (%s) byte for byte as the whole-array path did`, { timeout: 300_000 }, async (mode) => {
    const results: Record<string, Outcome> = {};
    for (const c of landingCorpus(CASES)) {
      counter = 0;
      const dir = join(tmp, c.name);
      const cwd = join(dir, 'cwd');
      await mkdir(cwd, { recursive: true });
      const path = join(dir, 'messages.jsonl');
      await writeFile(path, c.text);
      const outcome = await handOffFile(dir, path, cwd, mode);
      results[c.name] = outcome.manifest ? { ...outcome, manifest: sha256(outcome.manifest) } : outcome;
      await rm(dir, { recursive: true, force: true });
    }
    if (process.env.BATON_WRITE_GOLDENS === '1' && mode === 'array') await writeFile(GOLDENS, `${JSON.stringify(results, null, 1)}\n`);
    const goldens = JSON.parse(await readFile(GOLDENS, 'utf8')) as Record<string, Outcome>;
    // The corpus must exercise every kind of case, or the comparison proves little.
    const values = Object.values(goldens);
    expect(values.filter((o) => o.error?.includes('not valid JSON')).length).toBeGreaterThan(0);
    expect(values.filter((o) => o.error?.includes('both have id')).length).toBeGreaterThan(0);
    expect(values.filter((o) => o.files && Object.keys(o.files).some((f) => f.endsWith('.txt'))).length).toBeGreaterThan(10);
    expect(values.filter((o) => o.files && 'messages.checkpoint.json' in o.files).length).toBeGreaterThan(0);
    for (const [name, golden] of Object.entries(goldens)) expect({ name, ...results[name] }).toEqual({ name, ...golden });
  });
});
