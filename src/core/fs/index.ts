export { nodeDurableFs } from './durable-fs.js';
export type { DurableFs, DurableFile, FileStat, OpenFlags } from './durable-fs.js';
export { writeFileAtomic, createFileAtomic, writeDurableTemp, fsyncDir, tempPathFor, tempOwnerPid, TEMP_SUFFIX } from './write-file-atomic.js';
export type { AtomicWriteOptions } from './write-file-atomic.js';
