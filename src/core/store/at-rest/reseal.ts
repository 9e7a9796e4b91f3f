import { basename, join } from 'node:path';
import type { DurableFs } from '../../fs/durable-fs.js';
import { writeDurableTemp } from '../../fs/write-file-atomic.js';
import { errnoOf } from '../errors.js';
import { CHECKPOINT_FILE } from '../checkpoint.js';
import { ARCHIVED_DIR, RECEIPTS_DIR, SESSIONS_DIR } from '../layout.js';
import { MESSAGES_FILE } from '../message-log.js';
import { decodeLine } from '../record-codec.js';
import type { AtRestCipher } from './at-rest-cipher.js';
import { ENCRYPTION_FILE } from './at-rest-state.js';
import { mapLines } from './log-lines.js';

/**
 * Re-encrypts the store under the cipher's current key: plaintext files (`baton encrypt --enable`)
 * and files sealed with an older key (`baton key rotate`). Each file is replaced atomically (temp,
 * fsync, rename, fsync of the directory), and reads accept plaintext and every key the store still
 * holds, so a crash at any point leaves every session readable, each file old or new. Running it
 * again resumes: files already under the current key are skipped. Bytes that do not decode (damage)
 * are kept as they are, never cut.
 */
export interface ResealReport {
  sessions: number;
  /** Files rewritten under the current key. */
  resealed: number;
  /** Files already under the current key. */
  current: number;
  /** Lines or files that did not decode and were kept as they were. */
  undecodable: string[];
}

/** Store-level files the store writes (layout.ts, index-file.ts); anything else at the top is not the store's. */
const TOP_FILES = ['index.json', 'index.journal.jsonl', 'index.journal.old.jsonl', 'events.jsonl'];

export async function resealStore(root: string, fs: DurableFs, cipher: AtRestCipher, onSession?: (id: string) => void): Promise<ResealReport> {
  const report: ResealReport = { sessions: 0, resealed: 0, current: 0, undecodable: [] };
  for (const d of [SESSIONS_DIR, ARCHIVED_DIR]) {
    for (const id of (await listDir(fs, join(root, d))).sort()) {
      if (id.startsWith('.')) continue;
      await resealTree(fs, cipher, join(root, d, id), id, report);
      report.sessions += 1;
      onSession?.(id);
    }
  }
  for (const name of await listDir(fs, join(root, RECEIPTS_DIR))) if (!name.startsWith('.')) await resealFile(fs, cipher, join(root, RECEIPTS_DIR, name), '-', report);
  for (const name of TOP_FILES) if (fs.existsSync(join(root, name))) await resealFile(fs, cipher, join(root, name), '-', report);
  return report;
}

async function listDir(fs: DurableFs, dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return [];
    throw error;
  }
}

async function resealTree(fs: DurableFs, cipher: AtRestCipher, dir: string, sessionId: string, report: ResealReport): Promise<void> {
  for (const name of (await listDir(fs, dir)).sort()) {
    // Temp files of a writer and lock files are not data.
    if (name.startsWith('.') || name.endsWith('.lock') || name === ENCRYPTION_FILE) continue;
    const path = join(dir, name);
    const st = await fs.lstat(path);
    if (st.isDirectory) await resealTree(fs, cipher, path, sessionId, report);
    else if (st.isFile) await resealFile(fs, cipher, path, sessionId, report);
  }
}

async function resealFile(fs: DurableFs, cipher: AtRestCipher, path: string, sessionId: string, report: ResealReport): Promise<void> {
  const raw = await fs.readFile(path);
  const name = basename(path);
  const next = name === MESSAGES_FILE ? resealRecords(cipher, sessionId, raw, path, report) : name.endsWith('.jsonl') ? resealLines(cipher, raw, path, report) : resealWhole(cipher, raw, path, report);
  if (next === undefined) {
    report.current += 1;
    return;
  }
  // A checkpoint names byte offsets of the old log: drop it first (a missing one only costs a full scan).
  if (name === MESSAGES_FILE) await fs.unlink(join(path, '..', CHECKPOINT_FILE)).catch(() => undefined);
  const temp = await writeDurableTemp(path, next, { fs });
  try {
    await fs.rename(temp, path);
  } catch (error) {
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
  await fs.fsyncDir(join(path, '..'));
  report.resealed += 1;
}

/** New bytes, or undefined when the file is already under the current key. */
function resealWhole(cipher: AtRestCipher, raw: Buffer, path: string, report: ResealReport): Buffer | undefined {
  if (cipher.isCurrentFile(raw)) return undefined;
  let plain: Buffer;
  try {
    plain = cipher.openFile(path, raw) ?? raw;
  } catch {
    report.undecodable.push(path);
    return undefined;
  }
  return cipher.sealFile(path, plain);
}

function resealRecords(cipher: AtRestCipher, sessionId: string, raw: Buffer, path: string, report: ResealReport): Buffer | undefined {
  let damaged = 0;
  const next = mapLines(raw, (line) => {
    if (cipher.isCurrent(line)) return undefined;
    const plain = cipher.openRecordLine(sessionId, line);
    const seq = plain && decodeLine(plain)?.seq;
    if (seq === undefined) {
      damaged += 1;
      return undefined;
    }
    return cipher.sealRecordLine(sessionId, seq, plain!);
  });
  if (damaged > 0) report.undecodable.push(`${path} (${damaged} damaged ${damaged === 1 ? 'line' : 'lines'} kept as they were)`);
  return next;
}

function resealLines(cipher: AtRestCipher, raw: Buffer, path: string, report: ResealReport): Buffer | undefined {
  let damaged = 0;
  const next = mapLines(raw, (line) => {
    if (cipher.isCurrent(line)) return undefined;
    const plain = cipher.openLine(path, line);
    if (!plain) {
      damaged += 1;
      return undefined;
    }
    return cipher.sealLine(path, plain);
  });
  if (damaged > 0) report.undecodable.push(`${path} (${damaged} damaged ${damaged === 1 ? 'line' : 'lines'} kept as they were)`);
  return next;
}
