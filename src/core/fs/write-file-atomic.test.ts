import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FaultFs } from './fault-fs.js';
import { createFileAtomic, writeFileAtomic, tempOwnerPid, tempPathFor } from './write-file-atomic.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-fs-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('writes temp → fsync → rename → fsync(dir), mode 0600, no temp left', async () => {
    const ops: string[] = [];
    const fs = new FaultFs({ afterOp: (_n, op) => ops.push(op) });
    const target = join(dir, 'doc.json');
    await writeFileAtomic(target, 'one', { fs });
    expect(ops).toEqual(['write', 'sync', 'rename', 'fsyncDir']);
    expect(await readFile(target, 'utf8')).toBe('one');
    expect((await stat(target)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['doc.json']);
  });

  it('leaves the old content and no temp file when the fsync fails', async () => {
    const target = join(dir, 'doc.json');
    await writeFileAtomic(target, 'old');
    const fs = new FaultFs({ failAt: 2, errno: 'EIO' });
    await expect(writeFileAtomic(target, 'new', { fs })).rejects.toMatchObject({ code: 'EIO' });
    expect(await readFile(target, 'utf8')).toBe('old');
    expect(await readdir(dir)).toEqual(['doc.json']);
  });

  it('createFileAtomic never replaces an existing file', async () => {
    const target = join(dir, 'r.json');
    expect(await createFileAtomic(target, 'first')).toBe(true);
    expect(await createFileAtomic(target, 'second')).toBe(false);
    expect(await readFile(target, 'utf8')).toBe('first');
    expect(await readdir(dir)).toEqual(['r.json']);
  });

  it('temp names carry the owner pid so cleaners spare live writers', () => {
    const name = tempPathFor(join(dir, 'x.json')).split('/').pop()!;
    expect(tempOwnerPid(name)).toBe(process.pid);
    expect(tempOwnerPid('x.json')).toBeUndefined();
  });
});

describe('FaultFs power loss', () => {
  it('drops what was not fsynced and restores the durable directory entries', async () => {
    const fs = new FaultFs({ trackPowerLoss: true });
    const log = join(dir, 'log');
    const f = await fs.open(log, 'a');
    await f.write(Buffer.from('durable\n'));
    await f.sync();
    await fs.fsyncDir(dir);
    await f.write(Buffer.from('lost\n'));
    await f.close();
    const g = await fs.open(join(dir, 'new'), 'wx');
    await g.write(Buffer.from('never synced'));
    await g.close();
    await fs.powerLoss('drop');
    expect(await readFile(log, 'utf8')).toBe('durable\n');
    expect(await readdir(dir)).toEqual(['log']);
    await expect(fs.readFile(log)).rejects.toMatchObject({ code: 'ESIMCRASH' });
  });

  it('garbage mode keeps the grown size with random bytes past the last fsync', async () => {
    const fs = new FaultFs({ trackPowerLoss: true });
    const log = join(dir, 'log');
    const f = await fs.open(log, 'a');
    await f.write(Buffer.from('durable\n'));
    await f.sync();
    await fs.fsyncDir(dir);
    await f.write(Buffer.from('x'.repeat(100)));
    await f.close();
    await fs.powerLoss('garbage');
    const bytes = await readFile(log);
    expect(bytes.length).toBe(108);
    expect(bytes.subarray(0, 8).toString()).toBe('durable\n');
    expect(bytes.subarray(8).toString()).not.toBe('x'.repeat(100));
  });

  it('fails the Nth op with the injected errno and counts ops', async () => {
    const fs = new FaultFs({ failAt: 1, errno: 'ENOSPC', failKinds: ['sync'] });
    const f = await fs.open(join(dir, 'a'), 'a');
    await f.write(Buffer.from('x'));
    await expect(f.sync()).rejects.toMatchObject({ code: 'ENOSPC' });
    await f.close();
    expect(fs.count).toBe(1);
  });
});
