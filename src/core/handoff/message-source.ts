import { open, stat } from 'node:fs/promises';
import type { MessageInput } from '../../shared/message.js';
import { collectKeyedSecrets } from '../redact/redact-value.js';
import { MESSAGE_MAX_DEPTH, nestedDeeperThan } from './read-message-input.js';
import { MessageInputError, readMessageFile, streamMessageLines } from './stream-message-input.js';

/**
 * Where a new session's messages come from (issue 20). The landing reads them twice, and holds
 * neither pass: once to scan (below) and once to redact, trim and write them a batch at a time.
 */
export interface MessageSource {
  /** The messages from the start, in parts (one read of the file each call). */
  parts(): AsyncIterable<readonly MessageInput[]>;
  /** Called after the second read: throws when the input changed between the two. */
  checkUnchanged?(scan: InputScan): Promise<void>;
}

/**
 * What the landing must know before the first write, from one pass over the input:
 * - the literals under secret-named keys, because redaction replaces them wherever they occur
 *   (an earlier message may say the same string);
 * - which ids may repeat: a 32-bit hash of each id (4 bytes a message, not a set of strings) and
 *   the hashes seen twice, so the fold remembers only those ids (a hash collision only means one
 *   more id remembered);
 * - the count, the first user line (the default title), the last assistant model (a Baton
 *   session's model) and the first message nested too deep, all before anything is written.
 */
export interface InputScan {
  count: number;
  keyedSecrets: Set<string>;
  mayRepeat: (id: string) => boolean;
  /** First line of the first user message, trimmed (undefined: no user message). */
  firstUserLine: string | undefined;
  lastAssistantModel: string | null;
  /** Index of the first message nested deeper than MESSAGE_MAX_DEPTH, or -1. */
  tooDeep: number;
  /** The file's size and modification time when scanned, to tell a change before the second read. */
  fileStamp?: string;
}

export function arraySource(messages: readonly MessageInput[]): MessageSource {
  return {
    async *parts() {
      yield messages;
    },
  };
}

/** A messages file read twice, a MESSAGE_INPUT_CHUNK_BYTES chunk at a time; parse errors are MessageInputErrors naming the line. */
export function fileSource(path: string): MessageSource {
  return {
    parts: () => readMessageFile(path),
    async checkUnchanged(scan) {
      if (scan.fileStamp !== (await fileStamp(path))) throw new MessageInputError(`${path} changed while Baton was reading it; nothing was saved. Hand it off again once it is written.`);
    },
  };
}

async function fileStamp(path: string): Promise<string> {
  const s = await stat(path);
  return `${s.size}:${s.mtimeMs}:${s.ino}`;
}

/** One pass over the source (see InputScan); `checkDepth` for inputs that no line parser checked (imports, arrays). */
export async function scanMessages(source: MessageSource, options: { checkDepth: boolean; path?: string }): Promise<InputScan> {
  const fileStampBefore = options.path ? await fileStamp(options.path) : undefined;
  const builder = new InputScanBuilder(options.checkDepth);
  for await (const part of source.parts()) for (const m of part) builder.add(m);
  return { ...builder.result(), ...(fileStampBefore !== undefined ? { fileStamp: fileStampBefore } : {}) };
}

/**
 * The scan, a message at a time. An import's first read (importers/import-plan.ts) feeds it as
 * the converter makes each message, and the tool calls a later line adds to one (`extend`), so
 * the scan is the one the finished messages would give without holding them.
 */
export class InputScanBuilder {
  readonly keyedSecrets = new Set<string>();
  private hashes: Uint32Array = new Uint32Array(1024);
  private count = 0;
  private firstUserLine: string | undefined;
  private lastAssistantModel: string | null = null;
  private tooDeep = -1;

  constructor(private readonly checkDepth: boolean) {}

  /** The next message (number `count`), as first made. */
  add(m: MessageInput): void {
    this.extend(this.count, m);
    if (m.id !== undefined) {
      while (this.count >= this.hashes.length) this.hashes = grow(this.hashes);
      this.hashes[this.count] = idHash(m.id);
    }
    if (this.firstUserLine === undefined && m.role === 'user') this.firstUserLine = firstLine(m.content);
    if (m.role === 'assistant' && typeof m.model === 'string' && m.model.length > 0) this.lastAssistantModel = m.model;
    this.count++;
  }

  /** Part of message `index` (added or to be added), e.g. `{ toolCalls: [call] }`: its keyed secrets and depth. */
  extend(index: number, part: unknown): void {
    if (this.checkDepth && (this.tooDeep < 0 || index < this.tooDeep) && nestedDeeperThan(part, MESSAGE_MAX_DEPTH)) this.tooDeep = index;
    collectKeyedSecrets(part, this.keyedSecrets);
  }

  result(): InputScan {
    const repeated = repeatedHashes(this.hashes.subarray(0, this.count));
    return {
      count: this.count,
      keyedSecrets: this.keyedSecrets,
      mayRepeat: repeated.size === 0 ? () => false : (id) => repeated.has(idHash(id)),
      firstUserLine: this.firstUserLine,
      lastAssistantModel: this.lastAssistantModel,
      tooDeep: this.tooDeep,
    };
  }
}

/** `content.trim().split('\n')[0]` without splitting a 4 MB content into lines. */
function firstLine(content: string): string {
  const trimmed = content.trim();
  const nl = trimmed.indexOf('\n');
  return nl < 0 ? trimmed : trimmed.slice(0, nl);
}

/**
 * FNV-1a of the id's UTF-16 units, never 0 (0 marks a message without one). A hash only groups
 * the ids that may repeat (the landing then compares the ids themselves), so any spread-out hash
 * does; this one is computed in place, where zlib's crc32 of a string encoded each id to a Buffer
 * first (1.3 % of an import's CPU, issue 20).
 */
function idHash(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return hash >>> 0 || 1;
}

function grow(array: Uint32Array): Uint32Array {
  const grown = new Uint32Array(array.length * 2);
  grown.set(array);
  return grown;
}

/** Hash values that occur more than once (0, no id, excepted): sorted in place, then one scan. */
function repeatedHashes(hashes: Uint32Array): Set<number> {
  hashes.sort();
  const out = new Set<number>();
  for (let i = 1; i < hashes.length; i++) if (hashes[i] !== 0 && hashes[i] === hashes[i - 1]) out.add(hashes[i]!);
  return out;
}

export type ScannedInput = { ok: true; source: MessageSource; scan: InputScan } | { ok: false; message: string };

/**
 * A messages file up to this size is read once, whole, and its messages are held for the landing
 * (a landing batch, LANDING_BATCH_CHARS of text, is held anyway): a 150-message handoff then reads
 * and parses its file once, not twice. A bigger file is streamed twice and never held.
 */
export const HELD_MESSAGES_FILE_MAX_BYTES = 1024 * 1024;

/**
 * `baton handoff --messages FILE`: the file scanned once (every line parsed and checked, the first
 * bad one named before anything is written). A file of at most HELD_MESSAGES_FILE_MAX_BYTES lands
 * from the messages the scan parsed; a bigger one is read a second time as it lands.
 */
export async function scanMessageFile(path: string): Promise<ScannedInput> {
  try {
    const small = await readSmallFile(path);
    if (small) return await scanMessageArray(await parsedLines(small, path));
    const source = fileSource(path);
    return { ok: true, source, scan: await scanMessages(source, { checkDepth: false, path }) };
  } catch (error) {
    if (error instanceof MessageInputError) return { ok: false, message: error.message };
    const code = (error as { code?: string }).code;
    if (typeof code === 'string') return { ok: false, message: `cannot read ${path}: ${(error as Error).message}` };
    throw error;
  }
}

/**
 * A messages file's bytes already read (a hosted handoff: the CLI read the file and sent it,
 * src/core/handoff/hosted-handoff.ts), scanned as scanMessageFile scans a held file: the same
 * parse, and the same line-numbered messages naming `source` (the file as the person named it).
 */
export async function scanMessageBytes(bytes: Buffer, source: string): Promise<ScannedInput> {
  try {
    return await scanMessageArray(await parsedLines(bytes, source));
  } catch (error) {
    if (error instanceof MessageInputError) return { ok: false, message: error.message };
    throw error;
  }
}

/**
 * The whole file when it is a regular file of at most HELD_MESSAGES_FILE_MAX_BYTES, else undefined
 * (also when it grew after its stat: still being written). Anything else is read as before.
 */
async function readSmallFile(path: string): Promise<Buffer | undefined> {
  const file = await open(path, 'r');
  try {
    const stats = await file.stat();
    if (!stats.isFile() || stats.size > HELD_MESSAGES_FILE_MAX_BYTES) return undefined;
    // One byte more than its size: a read that fills it is a file still being written.
    const buffer = Buffer.allocUnsafe(stats.size + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await file.read(buffer, length, buffer.length - length);
      if (bytesRead === 0) return buffer.subarray(0, length);
      length += bytesRead;
      if (length === buffer.length) return undefined;
    }
  } finally {
    await file.close();
  }
}

/** Every message of a file's bytes, with the line-numbered errors of the streamed read. */
async function parsedLines(bytes: Buffer, path: string): Promise<MessageInput[]> {
  const messages: MessageInput[] = [];
  for await (const part of streamMessageLines([bytes], path)) for (const m of part) messages.push(m);
  return messages;
}

/** Messages already in memory (stdin, which cannot be read twice), scanned like a file. */
export async function scanMessageArray(messages: readonly MessageInput[]): Promise<ScannedInput> {
  const source = arraySource(messages);
  return { ok: true, source, scan: await scanMessages(source, { checkDepth: false }) };
}

/** Longest default title (the first line of the first user message). */
export const DEFAULT_TITLE_MAX_CHARS = 80;

/** Without --title: the first line of the first user message, shortened. */
export function defaultTitle(scan: Pick<InputScan, 'firstUserLine'>): string {
  const first = scan.firstUserLine ?? '';
  if (!first) return 'Untitled session';
  return first.length > DEFAULT_TITLE_MAX_CHARS ? `${first.slice(0, DEFAULT_TITLE_MAX_CHARS - 1)}…` : first;
}
