import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from './index.js';
import { needsUser } from '../test-support/needs-user.js';

/**
 * Real ENOSPC on a tiny tmpfs (needs root to mount). The store must answer NO_SPACE naming the
 * path, keep what was saved before, and accept the same append once space is freed.
 */
let mnt = '';
let mounted = false;

beforeAll(async () => {
  mnt = await mkdtemp(join(tmpdir(), 'baton-enospc-'));
  // As root the mount must work: a failure here fails the suite instead of skipping it.
  if (process.getuid?.() !== 0) return;
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mnt], { stdio: 'pipe' });
  mounted = true;
});

afterAll(async () => {
  if (mounted) execFileSync('umount', [mnt]);
  await rm(mnt, { recursive: true, force: true });
});

describe('real ENOSPC on a 64 KiB tmpfs', () => {
  it('typed NO_SPACE, previous state intact, retry succeeds after space is freed', async (ctx) => {
    needsUser(ctx, 'root', 'mounting a 64 KiB tmpfs for a real ENOSPC');
    const root = join(mnt, 'store');
    const store = await openStore(root);
    const s = await store.createSession({ cwd: '/w', gitRoot: null, branch: null, title: 't', source: { tool: 'baton' }, holder: 'terminal' }, [{ role: 'user', content: 'kept', id: 'k0' }]);
    // Fill the disk, leaving a few hundred bytes.
    const filler = join(mnt, 'filler');
    await writeFile(filler, Buffer.alloc(48 * 1024));
    let n = 0;
    while (n < 64) {
      try {
        await writeFile(join(mnt, `pad-${n}`), Buffer.alloc(1024));
        n += 1;
      } catch {
        break;
      }
    }
    const big = 'x'.repeat(8 * 1024);
    const err = await store.append(s.id, 1, [{ role: 'user', content: big, id: 'big-1' }]).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'NO_SPACE' });
    expect((err as { path?: string }).path).toContain(s.id);
    expect((err as Error).message).toMatch(/No space left.*Free some space and retry/);
    // Nothing reported saved that is not on disk; what was saved is intact.
    expect((await store.readMessages(s.id)).map((r) => r.id)).toEqual(['k0']);
    const other = await openStore(root);
    expect((await other.readMessages(s.id)).map((r) => r.id)).toEqual(['k0']);
    await other.close();
    // Free space: the same append now succeeds, exactly once.
    await unlink(filler);
    const recs = await store.append(s.id, 1, [{ role: 'user', content: big, id: 'big-1' }]);
    expect(recs[0]!.seq).toBe(1);
    expect((await store.readMessages(s.id)).map((r) => r.id)).toEqual(['k0', 'big-1']);
    // A session.json update on a full disk: NO_SPACE, then success.
    await writeFile(filler, Buffer.alloc(40 * 1024)).catch(() => undefined);
    for (let i = 0; i < 64; i++) await writeFile(join(mnt, `pad2-${i}`), Buffer.alloc(1024)).catch(() => undefined);
    const doc = await store.getSession(s.id);
    const title = 'y'.repeat(4096);
    const upd = await store.update(s.id, doc.revision, (d) => ({ ...d, title })).catch((e: unknown) => e);
    expect(upd).toMatchObject({ code: 'NO_SPACE' });
    expect((await store.getSession(s.id)).title).toBe('t');
    await unlink(filler).catch(() => undefined);
    for (let i = 0; i < 64; i++) await unlink(join(mnt, `pad2-${i}`)).catch(() => undefined);
    const fresh = await store.getSession(s.id);
    expect((await store.update(s.id, fresh.revision, (d) => ({ ...d, title }))).title).toBe(title);
    await store.close();
  });
});
