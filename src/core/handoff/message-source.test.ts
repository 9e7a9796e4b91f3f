import { readdir, writeFile, appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessageInput } from '../../shared/message.js';
import { HELD_MESSAGES_FILE_MAX_BYTES, arraySource, defaultTitle, fileSource, scanMessageFile, scanMessages, type MessageSource } from './message-source.js';
import { landAndReadBack } from './send.js';
import { createHandoffFixture, type HandoffFixture } from './test-support/handoff-fixture.js';

let fixture: HandoffFixture;
beforeEach(async () => {
  fixture = await createHandoffFixture();
});
afterEach(async () => fixture.dispose());

const jsonl = (messages: unknown[]) => `${messages.map((m) => JSON.stringify(m)).join('\n')}\n`;

describe('the scan before a streamed landing', () => {
  it('finds keyed secrets, the ids that repeat, the first user line, the last model and the first message nested too deep', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 300; i++) deep = [deep];
    const messages = [
      { role: 'system', content: 'setup' },
      { role: 'user', content: '  Fix the parser\nthen the tests', id: 'a' },
      { role: 'assistant', content: 'ok', model: 'claude-sonnet-4', toolCalls: [{ id: 't', name: 'Bash', input: { env: { API_TOKEN: 's3cr3t-value' } } }] },
      ...Array.from({ length: 5_000 }, (_, i) => ({ role: 'user', content: `m${i}`, id: `id-${i}` })),
      { role: 'user', content: 'again', id: 'a' },
      { role: 'assistant', content: 'deep', extra: deep, model: 'gpt-5' },
    ] as MessageInput[];
    const scan = await scanMessages(arraySource(messages), { checkDepth: true });
    expect(scan.count).toBe(messages.length);
    expect([...scan.keyedSecrets]).toEqual(['s3cr3t-value']);
    expect(scan.mayRepeat('a')).toBe(true);
    // Ids given once are not remembered by the fold (a crc32 collision among 5,000 ids is possible but not in this set).
    expect(Array.from({ length: 5_000 }, (_, i) => `id-${i}`).filter((id) => scan.mayRepeat(id))).toEqual([]);
    expect(scan.firstUserLine).toBe('Fix the parser');
    expect(defaultTitle(scan)).toBe('Fix the parser');
    expect(scan.lastAssistantModel).toBe('gpt-5');
    expect(scan.tooDeep).toBe(messages.length - 1);
  });

  it('names the first bad line of a file before anything is written', async () => {
    const path = join(fixture.workDir, 'bad.jsonl');
    await writeFile(path, `${jsonl([{ role: 'user', content: 'fine' }])}\n{"role":"user"}\n`);
    expect(await scanMessageFile(path)).toEqual({ ok: false, message: `${path}:3: content: Invalid input: expected string, received undefined` });
    expect(await fixture.store.list()).toEqual([]);
  });
});

describe('a messages file of at most HELD_MESSAGES_FILE_MAX_BYTES', () => {
  it('is read and parsed once: the session lands with the messages the scan read, whatever the file holds later', async () => {
    const path = join(fixture.workDir, 'small.jsonl');
    const messages = Array.from({ length: 150 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `m${i} ${'lorem ipsum '.repeat(20)}` }));
    await writeFile(path, jsonl(messages));
    const scanned = await scanMessageFile(path);
    if (!scanned.ok) throw new Error(scanned.message);
    // A second read would see this file (and refuse it as changed): the landing must not read it again.
    await writeFile(path, jsonl([{ role: 'user', content: 'written after the scan' }]));
    const landed = await landAndReadBack(fixture.store, { cwd: fixture.workDir, title: 't', messages: scanned.source, scan: scanned.scan });
    expect((await fixture.store.readMessages(landed.session.id)).map((r) => r.content)).toEqual(messages.map((m) => m.content));
  });
});

describe('a streamed landing whose input is not the one scanned', () => {
  it('refuses a file that changed between the two reads and leaves no session or staging behind', async () => {
    const path = join(fixture.workDir, 'm.jsonl');
    // Past HELD_MESSAGES_FILE_MAX_BYTES: streamed twice, never held.
    const count = Math.ceil(HELD_MESSAGES_FILE_MAX_BYTES / 500) + 1;
    await writeFile(path, jsonl(Array.from({ length: count }, (_, i) => ({ role: 'user', content: `m${i} ${'x'.repeat(500)}` }))));
    const scanned = await scanMessageFile(path);
    if (!scanned.ok) throw new Error(scanned.message);
    await appendFile(path, jsonl([{ role: 'user', content: 'written after the scan' }]));
    await expect(landAndReadBack(fixture.store, { cwd: fixture.workDir, title: 't', messages: scanned.source, scan: scanned.scan })).rejects.toThrow(new RegExp(`held ${count} messages when scanned and ${count + 1}`));
    expect(await fixture.store.list()).toEqual([]);
    expect(await readdir(join(fixture.store.root, 'sessions')).catch(() => [])).toEqual([]);
  });

  it('refuses a file rewritten with the same count (size or time changed)', async () => {
    const path = join(fixture.workDir, 'm.jsonl');
    await writeFile(path, jsonl([{ role: 'user', content: 'one' }]));
    const scan = await scanMessages(fileSource(path), { checkDepth: false, path });
    const source: MessageSource = fileSource(path);
    await writeFile(path, jsonl([{ role: 'user', content: 'a different one' }]));
    await expect(landAndReadBack(fixture.store, { cwd: fixture.workDir, title: 't', messages: source, scan })).rejects.toThrow(/changed while Baton was reading it/);
    expect(await fixture.store.list()).toEqual([]);
  });

  it('refuses two messages with one id but different content found only in the second read, with nothing left behind', async () => {
    const messages: MessageInput[] = [
      { role: 'user', content: 'first', id: 'same' },
      ...Array.from({ length: 3_000 }, (_, i) => ({ role: 'assistant' as const, content: `filler ${i} ${'x'.repeat(500)}` })),
      { role: 'user', content: 'second', id: 'same' },
    ];
    await expect(landAndReadBack(fixture.store, { cwd: fixture.workDir, title: 't', messages, batchChars: 10_000 })).rejects.toThrow(/messages 1 and 3002 both have id "same" but differ/);
    expect(await fixture.store.list()).toEqual([]);
    expect(await readdir(join(fixture.store.root, 'sessions')).catch(() => [])).toEqual([]);
  });
});
