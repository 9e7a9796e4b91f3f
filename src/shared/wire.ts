import { z } from 'zod';
import { describeZodError } from './manifest.js';
import { err, ok, type Result } from './result.js';

/**
 * The local endpoint's frames (ARCHITECTURE.md §6): newline-delimited JSON, one frame a line.
 *
 *   server → client  hello          {type:'hello', versions, nonce}
 *   client → server  auth           {type:'auth', version, proof, clientNonce?}
 *   server → client  authenticated  {type:'authenticated', version, serverProof?}
 *   client → server  request        {type:'request', id, method, params, version?}
 *   server → client  answer         {type:'answer', id, ok:true, ...} | {type:'answer', id, ok:false, code, message}
 *
 * proof       = hex HMAC-SHA256(token, base64-decoded hello nonce)
 * serverProof = hex HMAC-SHA256(token, SERVER_PROOF_LABEL ‖ clientNonce ‖ nonce), decoded bytes.
 * The label keeps the two proofs in different domains, so a fake server can never use one client
 * as an oracle to answer another client's nonce. `hello.serverProof` is reserved: in 1.x the
 * server proves itself in `authenticated`, because only then does it know the client's nonce.
 *
 * Pure: no node: imports. Parsing is "parse, then validate": JSON text is depth-checked before
 * JSON.parse, keys that could pollute prototypes are refused after it, and only then does zod run.
 */
export const PROTOCOL_VERSION = '1.0';
export const SUPPORTED_VERSIONS: readonly string[] = [PROTOCOL_VERSION];

/** Manifests carry references and hashes, never contents: 256 KiB is generous. */
export const MAX_FRAME_BYTES = 256 * 1024;
/** Before authentication only tiny frames are legitimate (an auth frame is ~250 bytes). */
export const MAX_HANDSHAKE_FRAME_BYTES = 1024;
/** The manifest nests about 4 levels; 32 leaves room for params without inviting stack abuse. */
export const MAX_JSON_DEPTH = 32;
/** An authenticated connection with nothing in flight, or a frame still arriving, closes after this. */
export const IDLE_TIMEOUT_MS = 30_000;
/** From accept to a verified proof. */
export const HANDSHAKE_TIMEOUT_MS = 5_000;
export const NONCE_BYTES = 32;
export const SERVER_PROOF_LABEL = 'baton-server-proof-v1\0';

/** Keys that must never reach an object some code might later merge or spread. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

const Version = z.string().regex(/^\d{1,4}\.\d{1,4}$/, 'expected MAJOR.MINOR');
/** 32 bytes of base64 (with padding) is exactly 44 characters. */
const Nonce = z.string().regex(/^[A-Za-z0-9+/]{43}=$/, 'expected base64 of 32 bytes');
const HexProof = z.string().regex(/^[0-9a-f]{64}$/, 'expected lowercase hex HMAC-SHA256');
/** Request ids are echoed in answers and logs: a safe alphabet and a bound. */
export const RequestId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected 1-64 of A-Z a-z 0-9 _ -');
const Method = z.string().regex(/^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*){0,3}$/, 'expected a dotted method name');
const Code = z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'expected an UPPER_SNAKE code');

export const HelloFrame = z.looseObject({
  type: z.literal('hello'),
  versions: z.array(Version).min(1).max(16),
  nonce: Nonce,
  serverProof: HexProof.optional(),
});
export type HelloFrame = z.infer<typeof HelloFrame>;

export const AuthFrame = z.looseObject({
  type: z.literal('auth'),
  version: Version,
  proof: HexProof,
  clientNonce: Nonce.optional(),
});
export type AuthFrame = z.infer<typeof AuthFrame>;

export const AuthenticatedFrame = z.looseObject({
  type: z.literal('authenticated'),
  version: Version,
  serverProof: HexProof.optional(),
});
export type AuthenticatedFrame = z.infer<typeof AuthenticatedFrame>;

export const RequestFrame = z.looseObject({
  type: z.literal('request'),
  id: RequestId,
  method: Method,
  params: z.unknown(),
  version: Version.optional(),
});
export type RequestFrame = z.infer<typeof RequestFrame>;

export const AnswerFrame = z.union([
  z.looseObject({ type: z.literal('answer'), id: RequestId.nullable(), ok: z.literal(true) }),
  z.looseObject({
    type: z.literal('answer'),
    id: RequestId.nullable(),
    ok: z.literal(false),
    code: Code,
    message: z.string().max(4096),
  }),
]);
export type AnswerFrame = z.infer<typeof AnswerFrame>;

export const ClientFrame = z.discriminatedUnion('type', [AuthFrame, RequestFrame]);
export type ClientFrame = z.infer<typeof ClientFrame>;
export const ServerFrame = z.union([HelloFrame, AuthenticatedFrame, AnswerFrame]);
export type ServerFrame = z.infer<typeof ServerFrame>;

/** The major part of a MAJOR.MINOR version, or NaN when it is not one. */
export function majorOf(version: string): number {
  const match = /^(\d{1,4})\.\d{1,4}$/.exec(version);
  return match ? Number(match[1]) : Number.NaN;
}

/** True when `version` speaks a newer major than ours: the peer must refuse with UPGRADE_REQUIRED. */
export function isNewerMajor(version: string, ours: string = PROTOCOL_VERSION): boolean {
  return majorOf(version) > majorOf(ours);
}

/** The first version both sides speak (same major), or null. */
export function pickVersion(offered: readonly string[], ours: readonly string[] = SUPPORTED_VERSIONS): string | null {
  for (const mine of ours) {
    if (offered.some((theirs) => majorOf(theirs) === majorOf(mine))) return mine;
  }
  return null;
}

export function upgradeRequiredMessage(theirs: string, ours: string = PROTOCOL_VERSION): string {
  return `peer speaks protocol ${theirs}, this Baton speaks ${ours}: upgrade Baton to talk to it`;
}

/**
 * Depth of JSON text, scanned without parsing so a frame of 100,000 '[' never reaches
 * JSON.parse (whose recursion would throw RangeError deep in V8). Returns Infinity past `limit`.
 */
export function jsonDepth(text: string, limit: number = MAX_JSON_DEPTH): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > max) max = depth;
      if (max > limit) return Number.POSITIVE_INFINITY;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return max;
}

/** The first forbidden key found anywhere in a parsed value, or null. Depth is already bounded. */
function findForbiddenKey(value: unknown): string | null {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findForbiddenKey(item);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      if (FORBIDDEN_KEYS.has(key)) return key;
      const found = findForbiddenKey((value as Record<string, unknown>)[key]);
      if (found !== null) return found;
    }
  }
  return null;
}

/** Strict JSON for untrusted text: bounded depth, no prototype-polluting keys, never throws. */
export function parseJsonStrict(text: string, maxDepth: number = MAX_JSON_DEPTH): Result<unknown> {
  if (jsonDepth(text, maxDepth) > maxDepth) {
    return err('BAD_FRAME', `frame nests deeper than ${maxDepth} levels`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return err('BAD_FRAME', `frame is not valid JSON (${error instanceof Error ? error.message.slice(0, 120) : 'parse error'})`);
  }
  const forbidden = findForbiddenKey(value);
  if (forbidden !== null) return err('BAD_FRAME', `frame contains the forbidden key "${forbidden}"`);
  return ok(value);
}

/** The request id of a frame that failed validation, if it has a usable one, so the answer can echo it. */
export function salvageRequestId(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const id = (value as Record<string, unknown>).id;
  return RequestId.safeParse(id).success ? (id as string) : null;
}

function validate<T>(schema: z.ZodType<T>, value: unknown, code: string): Result<T> {
  const parsed = schema.safeParse(value);
  return parsed.success ? ok(parsed.data) : err(code, describeZodError(parsed.error));
}

/**
 * A line from a client. BAD_FRAME: not JSON, too deep, polluting keys, or no known `type`;
 * BAD_REQUEST: a `request` whose fields are wrong (its id is echoed when usable).
 */
export function parseClientFrame(text: string): Result<ClientFrame> {
  const json = parseJsonStrict(text);
  if (!json.ok) return json;
  const value = json.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return err('BAD_FRAME', 'a frame must be a JSON object');
  }
  const type = (value as Record<string, unknown>).type;
  if (type === 'request') return validate(RequestFrame, value, 'BAD_REQUEST');
  if (type === 'auth') return validate(AuthFrame, value, 'BAD_FRAME');
  return err('BAD_FRAME', `unknown frame type ${JSON.stringify(type)?.slice(0, 40) ?? 'undefined'}`);
}

const AnswerOk = AnswerFrame.options[0];
const AnswerError = AnswerFrame.options[1];

/** A line from the server, seen by the client. Dispatches on `type` (and `ok`) so one schema runs, not a union. */
export function parseServerFrame(text: string): Result<ServerFrame> {
  const json = parseJsonStrict(text);
  if (!json.ok) return json;
  const value = json.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return err('BAD_FRAME', 'a frame must be a JSON object');
  }
  const record = value as Record<string, unknown>;
  if (record.type === 'answer') {
    return record.ok === true ? validate(AnswerOk, value, 'BAD_FRAME') : validate(AnswerError, value, 'BAD_FRAME');
  }
  if (record.type === 'hello') return validate(HelloFrame, value, 'BAD_FRAME');
  if (record.type === 'authenticated') return validate(AuthenticatedFrame, value, 'BAD_FRAME');
  return err('BAD_FRAME', `unknown frame type ${JSON.stringify(record.type)?.slice(0, 40) ?? 'undefined'}`);
}

/** One frame, one line. JSON.stringify escapes every newline inside strings, so the line is whole. */
export function encodeFrame(frame: Record<string, unknown>): string {
  return `${JSON.stringify(frame)}\n`;
}

/** UTF-8 byte length without node:buffer (TextEncoder exists in Node and browsers). */
export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}
