import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { DELETING_DIR } from '../delete-session.js';
import type { SessionStore } from '../types.js';

/** A session is whole (every message, listed, its receipt) or gone (no file, no row, no receipt, no marker). */
export async function wholeOrGone(store: SessionStore, id: string, messages: number, receipt: string): Promise<'whole' | 'gone'> {
  const listed = (await store.list({ includeArchived: true })).some((r) => r.id === id);
  const hasReceipt = (await store.getReceipt(receipt)) !== undefined;
  const present = existsSync(join(store.root, 'sessions', id)) || existsSync(join(store.root, 'archived', id));
  if (present) {
    expect((await store.readMessages(id)).length).toBe(messages);
    expect(listed).toBe(true);
    expect(hasReceipt).toBe(true);
    return 'whole';
  }
  expect(listed).toBe(false);
  expect(hasReceipt).toBe(false);
  await expect(store.getSession(id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  expect(await readdir(join(store.root, DELETING_DIR)).catch(() => [])).toEqual([]);
  return 'gone';
}

