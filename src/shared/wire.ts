import { z } from 'zod';
import { describeZodError } from './manifest.js';
import { err, ok, type Result } from './result.js';
import { parseJsonStrict } from './wire-json.js';

export * from './wire-json.js';
export { parseServerFrame } from './server-frames.js';

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

