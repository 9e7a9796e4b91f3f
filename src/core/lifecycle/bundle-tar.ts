import { gunzipSync, gzipSync } from 'node:zlib';
import { Readable } from 'node:stream';
import tarStream from 'tar-stream';

/**
 * The container of a portable session bundle: a tar (tar-stream) compressed with node:zlib. Reading
 * happens entirely in memory, under named limits, and refuses anything that is not a plain file
 * with a plain relative name: an import writes nothing until every entry has been checked.
 */
/** A bundle file on disk larger than this is refused before it is decompressed. */
export const BUNDLE_FILE_MAX_BYTES = 512 * 1024 * 1024;
/** The whole tar once decompressed; also the zip-bomb ceiling. */
export const BUNDLE_TAR_MAX_BYTES = 1024 * 1024 * 1024;
/** Decompressed size / compressed size above this is a zip bomb (deflate tops out near 1032:1)… */
export const BUNDLE_MAX_RATIO = 200;
/** …except below this many decompressed bytes, where tar padding alone compresses that well. */
export const BUNDLE_RATIO_FLOOR_BYTES = 8 * 1024 * 1024;
/** One entry (messages.jsonl of a 100,000-message session is ~60 MB). */
export const BUNDLE_ENTRY_MAX_BYTES = 512 * 1024 * 1024;
export const BUNDLE_MAX_ENTRIES = 100_000;
/** Entry names: segments of [A-Za-z0-9._-], no "." or ".." segment, no leading "/", at most 4 deep. */
const ENTRY_NAME = /^(?!.*(?:^|\/)\.{1,2}(?:\/|$))[A-Za-z0-9._-]{1,128}(?:\/[A-Za-z0-9._-]{1,128}){0,3}$/;

export interface TarEntry {
  name: string;
  data: Buffer;
}

export type TarRead = { ok: true; entries: TarEntry[] } | { ok: false; code: BundleRefusal; entry?: string; message: string };
export type BundleRefusal = 'TRUNCATED' | 'NOT_A_BUNDLE' | 'ZIP_BOMB' | 'TOO_LARGE' | 'BAD_ENTRY' | 'DUPLICATE_ENTRY' | 'OVERSIZED_ENTRY' | 'TOO_MANY_ENTRIES';

export function isEntryName(name: string): boolean {
  return ENTRY_NAME.test(name);
}

/** Packs entries in the given order (deterministic headers: mode 0600, mtime 0) and gzips them. */
export async function writeTarGz(entries: readonly TarEntry[]): Promise<Buffer> {
  const pack = tarStream.pack();
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    pack.on('data', (c: Buffer) => chunks.push(c));
    pack.on('end', resolve);
    pack.on('error', reject);
  });
  for (const e of entries) {
    await new Promise<void>((resolve, reject) => pack.entry({ name: e.name, size: e.data.length, mode: 0o600, mtime: new Date(0), type: 'file' }, e.data, (err) => (err ? reject(err) : resolve())));
  }
  pack.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks));
}

/** Decompresses under the ratio cap, then reads every entry; the first problem refuses the whole bundle. */
export async function readTarGz(bytes: Buffer): Promise<TarRead> {
  if (bytes.length > BUNDLE_FILE_MAX_BYTES) return { ok: false, code: 'TOO_LARGE', message: `The bundle is ${bytes.length} bytes; the limit is ${BUNDLE_FILE_MAX_BYTES}.` };
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return { ok: false, code: 'NOT_A_BUNDLE', message: 'The file is not a gzip-compressed Baton bundle.' };
  const cap = Math.min(BUNDLE_TAR_MAX_BYTES, Math.max(BUNDLE_RATIO_FLOOR_BYTES, bytes.length * BUNDLE_MAX_RATIO));
  let tar: Buffer;
  try {
    tar = gunzipSync(bytes, { maxOutputLength: cap });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_BUFFER_TOO_LARGE') return { ok: false, code: 'ZIP_BOMB', message: `The bundle decompresses to more than ${cap} bytes (over ${BUNDLE_MAX_RATIO}:1 or ${BUNDLE_TAR_MAX_BYTES} bytes): refused as a zip bomb.` };
    if (code === 'Z_BUF_ERROR') return { ok: false, code: 'TRUNCATED', message: 'The bundle is truncated (the compressed stream ends early).' };
    return { ok: false, code: 'NOT_A_BUNDLE', message: `The bundle's compression is damaged: ${(error as Error).message}.` };
  }
  return readTar(tar);
}

async function readTar(tar: Buffer): Promise<TarRead> {
  const extract = tarStream.extract();
  const entries: TarEntry[] = [];
  const seen = new Set<string>();
  let refusal: Extract<TarRead, { ok: false }> | undefined;
  const refuse = (r: Extract<TarRead, { ok: false }>): void => {
    refusal ??= r;
  };
  Readable.from([tar]).pipe(extract);
  try {
    for await (const entry of extract) {
      const { name, type, size } = entry.header;
      const shown = JSON.stringify(String(name).slice(0, 160));
      if (type !== 'file') refuse({ ok: false, code: 'BAD_ENTRY', entry: name, message: `Entry ${shown} is a ${type ?? 'special'} entry; a bundle holds plain files only.` });
      else if (!isEntryName(name)) refuse({ ok: false, code: 'BAD_ENTRY', entry: name, message: `Entry ${shown} has a name that could leave the bundle (absolute, "..", or unusual characters).` });
      else if (seen.has(name)) refuse({ ok: false, code: 'DUPLICATE_ENTRY', entry: name, message: `Entry ${shown} appears twice.` });
      else if ((size ?? 0) > BUNDLE_ENTRY_MAX_BYTES) refuse({ ok: false, code: 'OVERSIZED_ENTRY', entry: name, message: `Entry ${shown} is ${size} bytes; the limit is ${BUNDLE_ENTRY_MAX_BYTES}.` });
      else if (entries.length >= BUNDLE_MAX_ENTRIES) refuse({ ok: false, code: 'TOO_MANY_ENTRIES', entry: name, message: `The bundle has more than ${BUNDLE_MAX_ENTRIES} entries.` });
      if (refusal) {
        entry.resume();
        break;
      }
      seen.add(name);
      const chunks: Buffer[] = [];
      for await (const c of entry) chunks.push(c as Buffer);
      entries.push({ name, data: Buffer.concat(chunks) });
    }
  } catch (error) {
    extract.destroy();
    const message = (error as Error).message;
    return { ok: false, code: /unexpected end/i.test(message) ? 'TRUNCATED' : 'NOT_A_BUNDLE', message: `The bundle's tar is damaged: ${message}.` };
  }
  extract.destroy();
  if (refusal) return refusal;
  if (entries.length === 0) return { ok: false, code: 'NOT_A_BUNDLE', message: 'The bundle holds no entries.' };
  return { ok: true, entries };
}
