import type { DurableFile } from '../../fs/durable-fs.js';

/** `file` whose fsync is `sync` (which may call the real one): how the fsync-order tests hold or watch a sync. */
export function fileWithSync(file: DurableFile, sync: () => Promise<void>): DurableFile {
  return {
    path: file.path,
    write: (data, position) => file.write(data, position),
    read: (length, position) => file.read(length, position),
    truncate: (length) => file.truncate(length),
    stat: () => file.stat(),
    close: () => file.close(),
    sync,
  };
}
