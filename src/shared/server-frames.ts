import { codePointsWithin } from './code-points.js';
import { err, ok, type Result } from './result.js';
import type { ServerFrame } from './wire.js';
import { parseJsonStrict } from './wire-json.js';

/**
 * The server's frames as the client reads them (hello, authenticated, answer), checked by hand
 * against the same rules as wire.ts's zod schemas (HelloFrame, AuthenticatedFrame, AnswerFrame;
 * server-frames.test.ts holds the two to the same verdict over generated frames). The client is
 * the CLI's hot path: loading zod and building its schemas was ~15–20 ms of a hosted
 * `baton list --json`, more than the listing. Unknown fields are kept, as zod's looseObject does.
 */
const VERSION = /^\d{1,4}\.\d{1,4}$/;
const NONCE = /^[A-Za-z0-9+/]{43}=$/;
const HEX_PROOF = /^[0-9a-f]{64}$/;
const REQUEST_ID = /^[A-Za-z0-9_-]{1,64}$/;
const CODE = /^[A-Z][A-Z0-9_]{0,63}$/;
/** As the schemas bound them: versions offered in a hello, characters of an error message. */
const MAX_VERSIONS = 16;
const MAX_MESSAGE_CHARS = 4096;

const matches = (re: RegExp, v: unknown): boolean => typeof v === 'string' && re.test(v);

/** The first broken rule of a frame ("field: what was expected"), or null when it holds. */
function problemOf(r: Record<string, unknown>): string | null {
  if (r.type === 'hello') {
    const versions = r.versions;
    if (!Array.isArray(versions) || versions.length < 1 || versions.length > MAX_VERSIONS) return `versions: expected 1 to ${MAX_VERSIONS} versions`;
    const bad = versions.findIndex((v) => !matches(VERSION, v));
    if (bad >= 0) return `versions.${bad}: expected MAJOR.MINOR`;
    if (!matches(NONCE, r.nonce)) return 'nonce: expected base64 of 32 bytes';
    if (r.serverProof !== undefined && !matches(HEX_PROOF, r.serverProof)) return 'serverProof: expected lowercase hex HMAC-SHA256';
    return null;
  }
  if (r.type === 'authenticated') {
    if (!matches(VERSION, r.version)) return 'version: expected MAJOR.MINOR';
    if (r.serverProof !== undefined && !matches(HEX_PROOF, r.serverProof)) return 'serverProof: expected lowercase hex HMAC-SHA256';
    return null;
  }
  // An answer: ok true, or ok false with a code and a message.
  if (r.id !== null && !matches(REQUEST_ID, r.id)) return 'id: expected 1-64 of A-Z a-z 0-9 _ - (or null)';
  if (r.ok === true) return null;
  if (r.ok !== false) return 'ok: expected true or false';
  if (!matches(CODE, r.code)) return 'code: expected an UPPER_SNAKE code';
  if (typeof r.message !== 'string' || !codePointsWithin(r.message, MAX_MESSAGE_CHARS)) return `message: expected a string of at most ${MAX_MESSAGE_CHARS} characters`;
  return null;
}

/** A line from the server, seen by the client: BAD_FRAME for anything but a well-formed server frame. */
export function parseServerFrame(text: string): Result<ServerFrame> {
  const json = parseJsonStrict(text);
  if (!json.ok) return json;
  const value = json.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return err('BAD_FRAME', 'a frame must be a JSON object');
  }
  const record = value as Record<string, unknown>;
  if (record.type !== 'answer' && record.type !== 'hello' && record.type !== 'authenticated') {
    return err('BAD_FRAME', `unknown frame type ${JSON.stringify(record.type)?.slice(0, 40) ?? 'undefined'}`);
  }
  const problem = problemOf(record);
  return problem === null ? ok(record as ServerFrame) : err('BAD_FRAME', problem);
}
