/**
 * The few D-Bus messages a keychain read sends and receives (secret-service-read.ts), encoded and
 * decoded by hand: little-endian, the types of those calls only. Anything else a reply holds, or a
 * reply that does not parse, throws DbusWireError, and the caller falls back to the native binding.
 * Spec: https://dbus.freedesktop.org/doc/dbus-specification.html ("Message Format").
 */

export class DbusWireError extends Error {}

/** Message types (the header's second byte). */
export const METHOD_CALL = 1;
export const METHOD_RETURN = 2;
export const ERROR = 3;
export const SIGNAL = 4;

/** Header field codes. */
const PATH = 1;
const INTERFACE = 2;
const MEMBER = 3;
export const REPLY_SERIAL = 5;
const DESTINATION = 6;
const SIGNATURE = 8;

/** A growing little-endian buffer, aligned from its start (a message's header, or its body: both start 8-aligned). */
export class Writer {
  #buf = Buffer.alloc(256);
  length = 0;
  #room(n: number): void {
    if (this.length + n <= this.#buf.length) return;
    const next = Buffer.alloc(Math.max(this.#buf.length * 2, this.length + n));
    this.#buf.copy(next, 0, 0, this.length);
    this.#buf = next;
  }
  align(n: number): void {
    const pad = (n - (this.length % n)) % n;
    this.#room(pad);
    this.#buf.fill(0, this.length, this.length + pad);
    this.length += pad;
  }
  byte(v: number): void {
    this.#room(1);
    this.#buf[this.length++] = v;
  }
  u32(v: number): void {
    this.align(4);
    this.#room(4);
    this.#buf.writeUInt32LE(v, this.length);
    this.length += 4;
  }
  /** A string or an object path: length, UTF-8 bytes, NUL. */
  string(v: string): void {
    const bytes = Buffer.from(v, 'utf8');
    this.u32(bytes.length);
    this.raw(bytes);
    this.byte(0);
  }
  signature(v: string): void {
    this.byte(v.length);
    this.raw(Buffer.from(v, 'ascii'));
    this.byte(0);
  }
  bytes(v: Buffer): void {
    this.u32(v.length);
    this.raw(v);
  }
  raw(v: Buffer): void {
    this.#room(v.length);
    v.copy(this.#buf, this.length);
    this.length += v.length;
  }
  /** An array: its byte length is written once its elements are. `elementAlign`: the padding before the first element, not counted. */
  array(elementAlign: number, write: () => void): void {
    this.u32(0);
    const lengthAt = this.length - 4;
    this.align(elementAlign);
    const start = this.length;
    write();
    this.#buf.writeUInt32LE(this.length - start, lengthAt);
  }
  done(): Buffer {
    return this.#buf.subarray(0, this.length);
  }
}

/** What a body of a call holds: the signature's values, in order. */
export type BodyValue = { s: string } | { o: string } | { ay: Buffer } | { vay: Buffer } | { dictss: Record<string, string> };

function signatureOf(values: readonly BodyValue[]): string {
  return values.map((v) => ('s' in v ? 's' : 'o' in v ? 'o' : 'ay' in v ? 'ay' : 'vay' in v ? 'v' : 'a{ss}')).join('');
}

function writeBody(w: Writer, values: readonly BodyValue[]): void {
  for (const v of values) {
    if ('s' in v) w.string(v.s);
    else if ('o' in v) w.string(v.o);
    else if ('ay' in v) w.bytes(v.ay);
    else if ('vay' in v) {
      w.signature('ay');
      w.bytes(v.vay);
    } else
      w.array(8, () => {
        for (const [key, value] of Object.entries(v.dictss)) {
          w.align(8);
          w.string(key);
          w.string(value);
        }
      });
  }
}

/** A header field: its code, its D-Bus type and its value. */
export interface HeaderField {
  code: number;
  type: 'o' | 's' | 'g' | 'u';
  value: string | number;
}

/** One message's bytes: the header with `fields` (and the body's signature when there is a body), then the body `write` makes. */
export function encodeMessage(type: number, serial: number, fields: readonly HeaderField[], body?: { signature: string; write: (w: Writer) => void }): Buffer {
  const b = new Writer();
  body?.write(b);
  const h = new Writer();
  h.byte(0x6c); // 'l': little-endian
  h.byte(type);
  h.byte(0); // flags
  h.byte(1); // protocol version
  h.u32(b.length);
  h.u32(serial);
  const all = body && b.length > 0 ? [...fields, { code: SIGNATURE, type: 'g' as const, value: body.signature }] : fields;
  h.array(8, () => {
    for (const f of all) {
      h.align(8);
      h.byte(f.code);
      h.signature(f.type);
      if (f.type === 'u') h.u32(f.value as number);
      else if (f.type === 'g') h.signature(f.value as string);
      else h.string(f.value as string);
    }
  });
  h.align(8);
  return Buffer.concat([h.done(), b.done()]);
}

/** One method call's bytes. */
export function methodCall(serial: number, call: { destination: string; path: string; interface: string; member: string; body?: readonly BodyValue[] }): Buffer {
  const fields: HeaderField[] = [
    { code: PATH, type: 'o', value: call.path },
    { code: DESTINATION, type: 's', value: call.destination },
    { code: INTERFACE, type: 's', value: call.interface },
    { code: MEMBER, type: 's', value: call.member },
  ];
  const values = call.body ?? [];
  return encodeMessage(METHOD_CALL, serial, fields, { signature: signatureOf(values), write: (w) => writeBody(w, values) });
}

/** A bounds-checked reader of one message's part (its header fields or its body), aligned from that part's start. */
export class Reader {
  at = 0;
  constructor(private readonly buf: Buffer) {}
  #need(n: number): void {
    if (n < 0 || this.at + n > this.buf.length) throw new DbusWireError('a D-Bus message ends early');
  }
  align(n: number): void {
    const pad = (n - (this.at % n)) % n;
    this.#need(pad);
    this.at += pad;
  }
  byte(): number {
    this.#need(1);
    return this.buf[this.at++]!;
  }
  u32(): number {
    this.align(4);
    this.#need(4);
    const v = this.buf.readUInt32LE(this.at);
    this.at += 4;
    return v;
  }
  string(): string {
    const n = this.u32();
    this.#need(n + 1);
    const v = this.buf.toString('utf8', this.at, this.at + n);
    if (this.buf[this.at + n] !== 0) throw new DbusWireError('a D-Bus string without its NUL');
    this.at += n + 1;
    return v;
  }
  signature(): string {
    const n = this.byte();
    this.#need(n + 1);
    const v = this.buf.toString('ascii', this.at, this.at + n);
    if (this.buf[this.at + n] !== 0) throw new DbusWireError('a D-Bus signature without its NUL');
    this.at += n + 1;
    return v;
  }
  bytes(): Buffer {
    const n = this.u32();
    this.#need(n);
    const v = Buffer.from(this.buf.subarray(this.at, this.at + n));
    this.at += n;
    return v;
  }
  /** An array's elements, each read by `read` (after `elementAlign` padding) until its byte length is used. */
  array<T>(elementAlign: number, read: () => T): T[] {
    const n = this.u32();
    this.align(elementAlign);
    const end = this.at + n;
    this.#need(n);
    const out: T[] = [];
    while (this.at < end) {
      this.align(elementAlign);
      out.push(read());
    }
    if (this.at !== end) throw new DbusWireError('a D-Bus array overruns its length');
    return out;
  }
}

/** A received message: its type, the serial it answers, its body's signature and bytes. */
export interface Message {
  type: number;
  replySerial: number | undefined;
  signature: string;
  body: Buffer;
}

/** Messages are at most this large here (the replies read are a few hundred bytes; the spec's limit is 128 MB). */
const MAX_MESSAGE = 1 << 20;

/**
 * The first whole message at the start of `buf` and its length, or null when more bytes are needed.
 * Only little-endian messages are read (a bus on this machine speaks its own byte order).
 */
export function readMessage(buf: Buffer): { message: Message; length: number } | null {
  if (buf.length < 16) return null;
  if (buf[0] !== 0x6c) throw new DbusWireError('a big-endian D-Bus message');
  const bodyLength = buf.readUInt32LE(4);
  const fieldsLength = buf.readUInt32LE(12);
  const bodyAt = 16 + fieldsLength + ((8 - ((16 + fieldsLength) % 8)) % 8);
  const length = bodyAt + bodyLength;
  if (length > MAX_MESSAGE) throw new DbusWireError('a D-Bus message too large for a keychain read');
  if (buf.length < length) return null;
  const fields = new Reader(buf.subarray(0, bodyAt));
  fields.at = 12;
  let replySerial: number | undefined;
  let signature = '';
  fields.array(8, () => {
    const code = fields.byte();
    const type = fields.signature();
    if (type === 's' || type === 'o') fields.string();
    else if (type === 'g') {
      const g = fields.signature();
      if (code === SIGNATURE) signature = g;
    } else if (type === 'u') {
      const u = fields.u32();
      if (code === REPLY_SERIAL) replySerial = u;
    } else throw new DbusWireError(`a D-Bus header field of type ${type}`);
  });
  return { message: { type: buf[1]!, replySerial, signature, body: Buffer.from(buf.subarray(bodyAt, length)) }, length };
}
