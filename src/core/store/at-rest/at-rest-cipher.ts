import { relative, sep } from 'node:path';
import { decodeLine, type RecordCodec, type StoredRecord } from '../record-codec.js';
import { ARCHIVED_DIR, SESSIONS_DIR } from '../layout.js';
import { openBytes, sealBase64, sealBytes, sealedBytes, type DataKey } from './aead.js';
import { encodeEnvelopeInto, envelopeBytes, envelopeLine, isEnvelope, parseEnvelope } from './line-envelope.js';

/** Whole encrypted files start with this: a NUL first byte is never JSON or text, so it cannot be mistaken for plaintext. */
export const FILE_MAGIC = Buffer.from('\0BATON-AT-REST-1\n', 'latin1');
export const KEY_ID_CHARS = 16;
/** A session's staging directory while it is created: `.<id>.<pid>.<random>.creating` (housekeeping.ts). */
export const STAGING_DIR = /^\.(.+)\.\d+\.[0-9a-f]+\.creating$/;

/**
 * The store's at-rest cipher: one data key seals message records (associated data = session id +
 * seq), the lines of the other logs and whole files (associated data = the session they belong to,
 * or the store itself). Older keys stay readable during a rotation; new bytes use `current`.
 */
export class AtRestCipher {
  private readonly keys = new Map<string, DataKey>();

  constructor(
    readonly root: string,
    readonly current: DataKey,
    older: readonly DataKey[] = [],
  ) {
    for (const k of [current, ...older]) this.keys.set(k.keyId, k);
  }

  /** The session a path belongs to (sessions/<id>/… or archived/<id>/…), or '-' for store-level files. */
  scopeOf(path: string): string {
    const parts = relative(this.root, path).split(sep);
    if ((parts[0] !== SESSIONS_DIR && parts[0] !== ARCHIVED_DIR) || parts.length < 3) return '-';
    // A session is built in a staging directory (`.<id>.<pid>.<random>.creating`) and renamed into place.
    return STAGING_DIR.exec(parts[1]!)?.[1] ?? parts[1]!;
  }

  /** The key with this id, current or older (a rotation keeps older keys readable). */
  keyFor(keyId: string): DataKey | undefined {
    return this.keys.get(keyId);
  }

  recordCodec(sessionId: string): RecordCodec {
    const sealLineInto = (seq: number, plain: Uint8Array, into: Buffer, at: number): number | undefined => {
      // The line's length is known before the seal: nothing is sealed for a line that does not fit.
      const length = envelopeBytes(seq, this.current.keyId, sealedBytes(plain.length)) + 1;
      if (at + length > into.length) return undefined;
      const end = encodeEnvelopeInto(seq, this.current.keyId, sealBase64(this.current, plain, recordAad(sessionId, seq)), into, at);
      into[end] = NEWLINE;
      return length;
    };
    return {
      // The append path and the landing seal every record they write: the envelope's bytes are written once, where they go.
      sealLine: (seq: number, plain: Buffer): Buffer => {
        const body = plain.subarray(0, plain.length - 1);
        const line = Buffer.allocUnsafe(envelopeBytes(seq, this.current.keyId, sealedBytes(body.length)) + 1);
        sealLineInto(seq, body, line, 0);
        return line;
      },
      sealLineInto,
      openLine: (line: Buffer): Buffer | undefined => this.openRecordLine(sessionId, line),
      decode: (line: Buffer): StoredRecord | undefined => {
        const opened = this.openRecord(sessionId, line);
        const record = opened && decodeLine(opened.plain);
        // The seq outside must be the one inside: the associated data already binds it, this says so twice.
        return record && (opened!.seq === undefined || record.seq === opened!.seq) ? record : undefined;
      },
    };
  }

  /** A plaintext record line (without '\n') → its envelope line (without '\n'). */
  sealRecordLine(sessionId: string, seq: number, plain: Uint8Array): Buffer {
    return envelopeLine(seq, this.current.keyId, sealBytes(this.current, plain, recordAad(sessionId, seq)));
  }

  /**
   * The plaintext bytes of a record line: the envelope opened, or the line itself when it is
   * plaintext (written before `baton encrypt --enable`, or by a conversion that stopped half-way;
   * refusing it would make recovery cut it as a damaged tail). Undefined when it fails.
   */
  openRecordLine(sessionId: string, line: Buffer): Buffer | undefined {
    return this.openRecord(sessionId, line)?.plain;
  }

  /** The plaintext and, for an envelope, the seq it was sealed under. */
  private openRecord(sessionId: string, line: Buffer): { plain: Buffer; seq: number | undefined } | undefined {
    if (!isEnvelope(line)) return { plain: line, seq: undefined };
    // parseEnvelope reads the written layout from its bytes (no JSON parse, CRC over the bytes in place).
    const env = parseEnvelope(line);
    const key = env?.seq === undefined ? undefined : this.keyFor(env.keyId);
    const plain = key && openBytes(key, env!.sealed, recordAad(sessionId, env!.seq!));
    return plain ? { plain, seq: env!.seq } : undefined;
  }

  /** True when `line` is an envelope sealed with the current key (nothing to re-encrypt). */
  isCurrent(line: Uint8Array): boolean {
    return parseEnvelope(line)?.keyId === this.current.keyId;
  }

  /** True when a whole file is sealed with the current key. */
  isCurrentFile(bytes: Buffer): boolean {
    return isSealedFile(bytes) && bytes.subarray(FILE_MAGIC.length, FILE_MAGIC.length + KEY_ID_CHARS).toString('latin1') === this.current.keyId;
  }

  /** A line of a log other than messages.jsonl (without '\n') → its envelope line (without '\n'). */
  sealLine(path: string, plain: Uint8Array): Buffer {
    return envelopeLine(undefined, this.current.keyId, sealBytes(this.current, plain, `baton-line-v1\0${this.scopeOf(path)}`));
  }

  openLine(path: string, line: Buffer): Buffer | undefined {
    if (!isEnvelope(line)) return line;
    const env = parseEnvelope(line);
    const key = env && env.seq === undefined ? this.keyFor(env.keyId) : undefined;
    return key && openBytes(key, env!.sealed, `baton-line-v1\0${this.scopeOf(path)}`);
  }

  sealFile(path: string, plain: Uint8Array): Buffer {
    return Buffer.concat([FILE_MAGIC, Buffer.from(this.current.keyId, 'latin1'), sealBytes(this.current, plain, `baton-file-v1\0${this.scopeOf(path)}`)]);
  }

  /** Plaintext of an encrypted file; undefined when `bytes` is not one (plaintext); throws when it fails authentication. */
  openFile(path: string, bytes: Buffer): Buffer | undefined {
    if (!isSealedFile(bytes)) return undefined;
    const keyId = bytes.subarray(FILE_MAGIC.length, FILE_MAGIC.length + KEY_ID_CHARS).toString('latin1');
    const key = this.keyFor(keyId);
    const plain = key && openBytes(key, bytes.subarray(FILE_MAGIC.length + KEY_ID_CHARS), `baton-file-v1\0${this.scopeOf(path)}`);
    if (!plain) throw undecryptable(path, key ? 'it was changed or moved from another session' : `it is sealed with key ${keyId}, which this store does not hold`);
    return plain;
  }
}

const NEWLINE = 0x0a;

function recordAad(sessionId: string, seq: number): string {
  return `baton-record-v1\0${sessionId}\0${seq}`;
}

export function isSealedFile(bytes: Uint8Array): boolean {
  return bytes.byteLength >= FILE_MAGIC.length && Buffer.from(bytes.buffer, bytes.byteOffset, FILE_MAGIC.length).equals(FILE_MAGIC);
}

/** EBADMSG, like a bad block: callers that read documents treat it as damaged content, never as text. */
export function undecryptable(path: string, why: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${path} is encrypted and failed authentication: ${why}. It is treated as damaged.`), { code: 'EBADMSG', path });
}
