import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lookupShared, REPO_ROOT, SHARED_DIR } from './shared-dir.js';

const scratch = await mkdtemp(join(tmpdir(), 'baton-shared-dir-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('locating ../shared the way CI lays it out', () => {
  it('is the folder beside the repository root', () => {
    expect(SHARED_DIR).toBe(join(REPO_ROOT, '..', 'shared'));
  });

  it('finds present files', async () => {
    await mkdir(join(scratch, 'shared', 'fixtures'), { recursive: true });
    await writeFile(join(scratch, 'shared', 'fixtures', 'a.jsonl'), '{}\n');
    expect(lookupShared(['fixtures/a.jsonl'], { sharedDir: join(scratch, 'shared'), env: { CI: 'true' } })).toEqual({ ok: true, paths: [join(scratch, 'shared', 'fixtures', 'a.jsonl')] });
  });

  it('a missing shared/ fails in CI and names the path', () => {
    const gone = join(scratch, 'nowhere');
    const found = lookupShared(['fixtures/a.jsonl'], { sharedDir: gone, env: { CI: 'true' } });
    expect(found).toMatchObject({ ok: false, fail: true });
    expect(!found.ok && found.why).toContain(join(gone, 'fixtures', 'a.jsonl'));
  });

  it('outside CI the same miss is a skip, not a failure', () => {
    expect(lookupShared(['x'], { sharedDir: join(scratch, 'nowhere'), env: {} })).toMatchObject({ ok: false, fail: false });
  });
});
