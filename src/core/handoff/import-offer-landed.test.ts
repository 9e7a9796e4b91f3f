import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Manifest } from '../../shared/manifest.js';
import { openStore } from '../store/index.js';
import type { SessionStore } from '../store/types.js';
import { importAgentSession } from './import-agent-session.js';
import { offerSession } from './send.js';

/**
 * `baton handoff --from claude`: the import's read-back goes straight to the offer (issue 20: the
 * log is not parsed a second time). The manifest must be the one the re-read path builds, plus the
 * log's size and hash as read back, which the receiver checks instead of parsing the log.
 */
const SAMPLE = join(resolve(import.meta.dirname, '../../..'), '..', 'shared', 'fixtures', 'agent-logs', 'claude-code-session.sample.jsonl');
const FILE = '4d5611e5-241a-462a-8d15-5122611a9569.jsonl';
let tmp: string;
const stores: SessionStore[] = [];

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'baton-import-offer-'));
  // The real sample, repeated with its own uuids, a secret in a tool result and a long output, so
  // redaction, trimming (an artifact) and the summary all take part.
  const templates = readFileSync(SAMPLE, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  const lines: string[] = [];
  for (let i = 0; i < 300; i++) {
    const line = structuredClone(templates[i % templates.length]!);
    line.uuid = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const message = line.message as { id?: string; content?: unknown } | undefined;
    if (message?.id) message.id = `msg_${i}`;
    if (message && Array.isArray(message.content))
      for (const part of message.content as Record<string, unknown>[]) {
        if (typeof part.id === 'string') part.id = `toolu_${i}`;
        if (typeof part.tool_use_id === 'string') part.tool_use_id = `toolu_${i - 1}`;
        if (typeof part.content === 'string') part.content = i === 40 ? `${'build log line\n'.repeat(20_000)}export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n` : `${part.content} ${i}`;
      }
    lines.push(JSON.stringify(line));
  }
  await writeFile(join(tmp, FILE), `${lines.join('\n')}\n`);
});
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  await rm(tmp, { recursive: true, force: true });
});

async function dryRun(name: string, useLanded: boolean): Promise<{ manifest: Manifest; store: SessionStore; sessionId: string }> {
  const store = await openStore(join(tmp, name));
  stores.push(store);
  const imported = await importAgentSession(store, 'claude', join(tmp, FILE), { HOME: tmp, CLAUDE_CONFIG_DIR: join(tmp, 'claude') });
  expect(imported.created).toBe(true);
  expect(imported.landed?.session.id).toBe(imported.session.id);
  const outcome = await offerSession(
    imported.session.id,
    { store, endpoint: { transport: 'unix', path: join(tmp, 'nobody.sock') } as never, token: Buffer.alloc(32), timeoutMs: 1_000, launch: false, dryRun: true },
    useLanded ? imported.landed : undefined,
  );
  return { manifest: (outcome.answer as { manifest: Manifest }).manifest, store, sessionId: imported.session.id };
}

describe('an imported session offered from its read-back', () => {
  it('gives the manifest the re-read path gives, plus the log figures, which match the bytes on disk', async () => {
    const fromLanded = await dryRun('a', true);
    const reread = await dryRun('b', false);
    expect(fromLanded.sessionId).toBe(reread.sessionId);
    const { log_bytes: bytes, log_sha256: sha256, ...context } = fromLanded.manifest.context as Record<string, unknown>;
    expect(reread.manifest.context).not.toHaveProperty('log_sha256');
    const onDisk = await readFile(join(fromLanded.store.sessionDir(fromLanded.sessionId), 'messages.jsonl'));
    expect({ bytes, sha256 }).toEqual({ bytes: onDisk.length, sha256: createHash('sha256').update(onDisk).digest('hex') });
    // Everything else is the same, down to the digest of the messages, the anchors and the estimate;
    // only what is per handoff or per clock differs.
    const stable = (m: Manifest, ctx: unknown) => JSON.parse(JSON.stringify({ ...m, context: ctx }), (key, value) => (['handoff_id', 'created_at', 'createdAt', 'updatedAt', 'at'].includes(key) ? '<varies>' : value));
    expect(stable(fromLanded.manifest, context)).toEqual(stable(reread.manifest, reread.manifest.context));
    expect((context as { message_count: number }).message_count).toBeGreaterThan(150);
    expect(onDisk.toString()).not.toContain('wJalrXUtnFEMI');
  });
});
