import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onMemoryFilesystem } from './memory-filesystem.js';

// Issue 17: an encrypted store's hosted listing goes in the clear only to a memory filesystem
// (src/core/host/listing-place.ts), so telling one from a disk must not err towards memory.
describe('onMemoryFilesystem', () => {
  it('is false off Linux, and for a directory that is not there', () => {
    expect(onMemoryFilesystem('/dev/shm', 'darwin')).toBe(false);
    expect(onMemoryFilesystem('/dev/shm', 'win32')).toBe(false);
    expect(onMemoryFilesystem(join(tmpdir(), 'baton-no-such-dir-7a1c'), 'linux')).toBe(false);
  });

  it.skipIf(process.platform !== 'linux')('tells tmpfs and ramfs mounts from disks, as /proc/mounts lists them (skipped off Linux)', async () => {
    // The last mount at a path is the one statfs sees; paths written with octal escapes (a space is
    // \040) or gone from this namespace are left out.
    const byPath = new Map<string, string>();
    for (const [, path, type] of (await readFile('/proc/mounts', 'utf8')).split('\n').map((line) => line.split(' '))) {
      if (path && type && !path.includes('\\') && existsSync(path)) byPath.set(path, type);
    }
    const memory = [...byPath].filter(([, type]) => type === 'tmpfs' || type === 'ramfs').map(([path]) => path);
    const disks = [...byPath].filter(([, type]) => ['ext2', 'ext3', 'ext4', 'xfs', 'btrfs', 'overlay', 'zfs', 'vfat'].includes(type)).map(([path]) => path);
    expect(memory.length + disks.length).toBeGreaterThan(0);
    for (const path of memory) expect(onMemoryFilesystem(path), path).toBe(true);
    for (const path of disks) expect(onMemoryFilesystem(path), path).toBe(false);
  });
});
