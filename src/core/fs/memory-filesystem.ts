import { statfsSync } from 'node:fs';

/**
 * statfs(2) `f_type` of Linux's memory filesystems (linux/magic.h): TMPFS_MAGIC and RAMFS_MAGIC.
 * Their files live in RAM (tmpfs pages may go to swap, as any process's memory may) and are gone
 * at reboot; systemd mounts every `/run/user/UID`, the usual XDG_RUNTIME_DIR, as tmpfs.
 */
const MEMORY_FILESYSTEM_TYPES: ReadonlySet<number> = new Set([0x01021994, 0x858458f6]);

/**
 * Whether `dir` is on a memory filesystem: false on any other platform (their statfs types are not
 * these), and when `dir` cannot be examined (missing, unreadable): the caller then takes the path
 * that assumes a disk.
 */
export function onMemoryFilesystem(dir: string, platform: NodeJS.Platform = process.platform): boolean {
  if (platform !== 'linux') return false;
  try {
    return MEMORY_FILESYSTEM_TYPES.has(statfsSync(dir).type);
  } catch {
    return false;
  }
}
