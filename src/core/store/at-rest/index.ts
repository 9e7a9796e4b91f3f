import { basename } from 'node:path';
import type { DurableFs } from '../../fs/durable-fs.js';
import { plainRecordCodec, type RecordCodec } from '../record-codec.js';
import { STAGING_DIR } from './at-rest-cipher.js';
import { cipherOf } from './encrypting-fs.js';

export { cipherOf, encryptingFs } from './encrypting-fs.js';
export { AtRestCipher, isSealedFile } from './at-rest-cipher.js';

/** The record codec of the session in `dir` (its basename is the session id) on this store's file system. */
export function recordCodecFor(fs: DurableFs, dir: string): RecordCodec {
  return cipherOf(fs)?.recordCodec(sessionIdOfDir(dir)) ?? plainRecordCodec;
}

/** A session directory's id; a staging directory (`.<id>.<pid>.<random>.creating`) names its session too. */
export function sessionIdOfDir(dir: string): string {
  const name = basename(dir);
  return STAGING_DIR.exec(name)?.[1] ?? name;
}

/** A log line (without '\\n') as it goes to disk: sealed when the store is encrypted. */
export function sealLineFor(fs: DurableFs, path: string, plain: Buffer): Buffer {
  return cipherOf(fs)?.sealLine(path, plain) ?? plain;
}

/** A log line read back (without '\\n'): opened when sealed; undefined when it fails authentication. A plaintext line passes as it is. */
export function openLineFor(fs: DurableFs, path: string, line: Buffer): Buffer | undefined {
  const cipher = cipherOf(fs);
  return cipher ? cipher.openLine(path, line) : line;
}

/** A file's bytes as they sit on disk (sealed or not): damaged content is kept aside as it was, never opened. */
export async function bytesOnDisk(fs: DurableFs, path: string): Promise<Buffer> {
  const file = await fs.open(path, 'r');
  try {
    return await file.read((await file.stat()).size, 0);
  } finally {
    await file.close();
  }
}
