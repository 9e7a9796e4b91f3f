/**
 * The hosted handoff's request (issue 20): `baton handoff --messages FILE` asks a running host
 * (desktop or `baton serve`) to land the session and take it, instead of starting the whole CLI.
 * The CLI reads the file and sends its bytes; the host never opens a path it was given. Parsed
 * here without zod: the client bundle (src/cli/handoff-fast.ts) carries no schema library, and
 * the host checks every field with a message naming it and its limit.
 *
 * Wire: method HOSTED_HANDOFF_METHOD, params
 *   { sessionId, cwd, title?, source, git?, bytes, parts, part, data }
 * `data` is part `part` (0-based) of `parts` of the file, base64 (a frame holds at most
 * MAX_FRAME_BYTES, the file up to HELD_MESSAGES_FILE_MAX_BYTES). Parts come in order on one
 * connection; the fields other than `part` and `data` are the same in each.
 * `sessionId` is made by the client: it names the session and is the request's key, so a
 * request sent again after a dropped connection is recognised and never lands twice.
 */
import { isAbsolute } from 'node:path';
import { isValidId } from '../../shared/ids.js';

export const HOSTED_HANDOFF_METHOD = 'handoff.land';
/** Bytes of the messages file per part (base64 in the frame: 4/3 of this, well under MAX_FRAME_BYTES). */
export const HOSTED_HANDOFF_PART_BYTES = 144 * 1024;
/** The whole file: the held-file limit of the CLI's own landing (message-source.ts HELD_MESSAGES_FILE_MAX_BYTES, 1 MiB). */
export const HOSTED_HANDOFF_MAX_BYTES = 1024 * 1024;
export const HOSTED_HANDOFF_MAX_PARTS = Math.ceil(HOSTED_HANDOFF_MAX_BYTES / HOSTED_HANDOFF_PART_BYTES);
/** Longest cwd, title and source label accepted (characters): a path longer than PATH_MAX is no directory. */
export const HOSTED_HANDOFF_PATH_MAX_CHARS = 4096;
export const HOSTED_HANDOFF_TITLE_MAX_CHARS = 4096;

export interface HostedHandoffRequest {
  sessionId: string;
  /** Absolute; the host checks that it is a directory. */
  cwd: string;
  title?: string;
  /** The messages file as the person named it: only in messages about a bad line, never opened. */
  source: string;
  /**
   * The client found a `.git` upward from cwd (a stat walk): the host's capture must then find the
   * repository too, or it refuses (its PATH or file access may differ from the terminal's).
   */
  git?: boolean;
  /** Size of the whole file. */
  bytes: number;
  parts: number;
  part: number;
  data: Buffer;
}

export type HostedHandoffParse = { ok: true; request: HostedHandoffRequest } | { ok: false; message: string };

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The request's params checked field by field; the first problem is named with its limit. */
export function parseHostedHandoffRequest(params: unknown): HostedHandoffParse {
  const fail = (message: string): HostedHandoffParse => ({ ok: false, message: `${HOSTED_HANDOFF_METHOD}: ${message}` });
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return fail('params must be an object');
  const p = params as Record<string, unknown>;
  if (!isValidId(p.sessionId)) return fail('sessionId must be a session id (letters, digits, ".", "_", "-"; at most 128)');
  const cwd = checkedPath(p.cwd, 'cwd');
  if (typeof cwd !== 'string') return fail(cwd.message);
  if (!isAbsolute(cwd)) return fail(`cwd must be an absolute path, got ${JSON.stringify(cwd.slice(0, 200))}`);
  if (p.title !== undefined) {
    if (typeof p.title !== 'string') return fail('title must be a string');
    if (p.title.length > HOSTED_HANDOFF_TITLE_MAX_CHARS) return fail(`title is longer than ${HOSTED_HANDOFF_TITLE_MAX_CHARS} characters`);
    if (p.title.includes('\0')) return fail('title must not contain NUL');
  }
  const source = checkedPath(p.source, 'source');
  if (typeof source !== 'string') return fail(source.message);
  if (p.git !== undefined && typeof p.git !== 'boolean') return fail('git must be a boolean');
  if (!Number.isSafeInteger(p.bytes) || (p.bytes as number) < 0 || (p.bytes as number) > HOSTED_HANDOFF_MAX_BYTES) return fail(`bytes must be an integer from 0 to ${HOSTED_HANDOFF_MAX_BYTES} (HOSTED_HANDOFF_MAX_BYTES)`);
  const bytes = p.bytes as number;
  const expectedParts = Math.max(1, Math.ceil(bytes / HOSTED_HANDOFF_PART_BYTES));
  if (p.parts !== expectedParts) return fail(`parts must be ${expectedParts} for ${bytes} bytes in parts of ${HOSTED_HANDOFF_PART_BYTES} (HOSTED_HANDOFF_PART_BYTES)`);
  if (!Number.isSafeInteger(p.part) || (p.part as number) < 0 || (p.part as number) >= expectedParts) return fail(`part must be an integer from 0 to ${expectedParts - 1}`);
  const part = p.part as number;
  if (typeof p.data !== 'string' || p.data.length % 4 !== 0 || !BASE64.test(p.data)) return fail('data must be base64');
  const data = Buffer.from(p.data, 'base64');
  const partBytes = part < expectedParts - 1 ? HOSTED_HANDOFF_PART_BYTES : bytes - HOSTED_HANDOFF_PART_BYTES * (expectedParts - 1);
  if (data.length !== partBytes) return fail(`part ${part} must hold ${partBytes} bytes, got ${data.length}`);
  return { ok: true, request: { sessionId: p.sessionId as string, cwd, ...(p.title !== undefined ? { title: p.title as string } : {}), source, ...(p.git !== undefined ? { git: p.git as boolean } : {}), bytes, parts: expectedParts, part, data } };
}

function checkedPath(value: unknown, name: string): string | { message: string } {
  if (typeof value !== 'string' || value.length === 0) return { message: `${name} must be a non-empty string` };
  if (value.length > HOSTED_HANDOFF_PATH_MAX_CHARS) return { message: `${name} is longer than ${HOSTED_HANDOFF_PATH_MAX_CHARS} characters (HOSTED_HANDOFF_PATH_MAX_CHARS)` };
  if (value.includes('\0')) return { message: `${name} must not contain NUL` };
  return value;
}

