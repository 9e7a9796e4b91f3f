import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../shared/message.js';
import { digestMessages } from './context-digest.js';

describe('the manifest digest of the messages', () => {
  it('hashed in batches, equals the sha256 of every record line joined (as both sides computed it before)', () => {
    const records = Array.from({ length: 20_000 }, (_, seq) => ({ seq, id: `m-${seq}-é😀`, crc: (seq * 7919).toString(16).padStart(8, '0'), role: 'user', content: '', createdAt: '' }) as MessageRecord);
    const joined = records.map((r) => `${r.seq}:${r.id}:${r.crc}\n`).join('');
    const digest = digestMessages(records);
    expect(digest.message_count).toBe(20_000);
    expect(digest.messages_sha256).toBe(createHash('sha256').update(joined).digest('hex'));
    expect(digest.tool_calls_sha256).toBe(createHash('sha256').update('').digest('hex'));
  });
});
