import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importAgentSession } from '../handoff/import-agent-session.js';
import { readAgentSession } from '../importers/read-session.js';
import { transcriptCorpus } from '../importers/test-fixtures/transcript-corpus.js';
import { openStore } from '../store/index.js';
import { syncAgentLog } from './sync-agent-log.js';

/**
 * After a run, the agent's log streams through the import's converter and only messages with ids
 * the store lacks are appended: the same messages, in the same order, as the whole-array
 * conversion gives (readAgentSession, filtered the same way).
 */
let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'baton-sync-agent-log-'));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('syncAgentLog', () => {
  it('appends what the whole-array conversion says is new, for 40 generated transcripts that grew after their import', { timeout: 120_000 }, async () => {
    let synced = 0;
    for (const t of transcriptCorpus(80, 7).filter((c) => c.source === 'claude')) {
      const path = join(home, '.claude', 'projects', '-p', `${t.name}.jsonl`);
      await mkdir(dirname(path), { recursive: true });
      const lines = t.text.split('\n');
      // Imported at half its lines (cut at a line end), then the agent wrote the rest.
      await writeFile(path, `${lines.slice(0, Math.ceil(lines.length / 2)).join('\n')}\n`);
      const store = await openStore(join(home, `data-${t.name}`));
      try {
        let session;
        try {
          session = (await importAgentSession(store, 'claude', path, { HOME: home })).session;
        } catch {
          continue; // a half that is no session yet, or a duplicate-id conflict: nothing to sync
        }
        await writeFile(path, t.text);
        const before = await store.readMessages(session.id);
        const known = new Set(before.map((r) => r.id));
        const whole = await readAgentSession('claude', path, { HOME: home });
        const expected = whole.messages.filter((m) => m.id !== undefined && !known.has(m.id));
        expect(await syncAgentLog(store, session, { HOME: home })).toEqual({ appended: expected.length });
        const after = await store.readMessages(session.id);
        expect(after.slice(before.length).map((r) => [r.id, r.role, r.content, r.toolCalls?.map((c) => c.output)])).toEqual(
          expected.map((m) => [m.id, m.role, m.content, m.toolCalls?.map((c) => c.output)]),
        );
        // Synced again: nothing new.
        expect(await syncAgentLog(store, await store.getSession(session.id), { HOME: home })).toEqual({ appended: 0 });
        if (expected.length > 0) synced++;
      } finally {
        await store.close();
      }
    }
    expect(synced).toBeGreaterThan(20);
  });
});
