import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { nodeDurableFs, type DurableFs } from './durable-fs.js';

/** Temp files are named `.<target>.<pid>.<random>.tmp` so a cleaner can tell whose they are. */
export const TEMP_SUFFIX = '.tmp';

export interface AtomicWriteOptions {
  mode?: number;
  fs?: DurableFs;
}

export function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`);
}

/** The pid encoded in a temp file name, or undefined when the name is not one of ours. */
export function tempOwnerPid(name: string): number | undefined {
  const m = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/.exec(name);
  return m ? Number(m[1]) : undefined;
}

export async function fsyncDir(path: string, fs: DurableFs = nodeDurableFs): Promise<void> {
  await fs.fsyncDir(path);
}

/** Writes data to a new temp file in the same directory and fsyncs it; returns the temp path. */
export async function writeDurableTemp(target: string, data: Uint8Array | string, options: AtomicWriteOptions = {}): Promise<string> {
  const fs = options.fs ?? nodeDurableFs;
  const temp = tempPathFor(target);
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const file = await fs.open(temp, 'wx', options.mode ?? 0o600);
  try {
    await file.write(bytes, 0);
    await file.sync();
  } catch (error) {
    await file.close().catch(() => undefined);
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
  await file.close();
  return temp;
}

/**
 * temp file in the same directory → write → fsync → rename → fsync(dir). A reader sees the old
 * or the new content, never a mix, and after the directory fsync the new content survives power loss.
 */
export async function writeFileAtomic(target: string, data: Uint8Array | string, options: AtomicWriteOptions = {}): Promise<void> {
  const fs = options.fs ?? nodeDurableFs;
  const temp = await writeDurableTemp(target, data, options);
  try {
    await fs.rename(temp, target);
  } catch (error) {
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
  await fs.fsyncDir(dirname(target));
}

/**
 * Atomic create: the file appears complete or not at all, and never replaces an existing one.
 * Returns false (and leaves the existing file alone) when `target` exists.
 */
export async function createFileAtomic(target: string, data: Uint8Array | string, options: AtomicWriteOptions = {}): Promise<boolean> {
  const fs = options.fs ?? nodeDurableFs;
  const temp = await writeDurableTemp(target, data, options);
  try {
    await fs.link(temp, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await fs.unlink(temp).catch(() => undefined);
  }
  await fs.fsyncDir(dirname(target));
  return true;
}
