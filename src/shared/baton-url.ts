import { isValidId } from './ids.js';
import { normalizePairingCode } from './pairing-code.js';

/**
 * The baton:// deep link, parsed by hand against an allow-list (GitHub Desktop's parse-app-url
 * model): anything odd maps to `unknown` with a reason, never to a guess. The WHATWG URL parser is
 * not used: it percent-decodes, resolves '..', accepts userinfo and ports, and lowercases hosts,
 * each a way for a crafted link to mean something other than what it shows.
 *
 *   baton://handoff/<handoffId>?session=<sessionId>
 *   baton://session/<sessionId>
 *   baton://pair?code=<pairing code>      (issue 13: join another device; the code is single-use)
 *
 * Decisions: the scheme and the kind (handoff/session) are case-insensitive, ids are not; one
 * trailing '/' after the id is accepted (some launchers append it) and dropped; '%' anywhere,
 * '#', '@', ':' after the scheme, whitespace, control and non-ASCII characters are refused.
 * A URL carries ids only: never paths, prompts or manifests (argv is readable by other users).
 */
export const MAX_URL_LENGTH = 2048;
export const BATON_SCHEME = 'baton';
/** The flag launchers put before a link (electron-builder.yml `executableArgs`, the .desktop Exec line). */
export const BATON_URL_MARKER = '--baton-url';

export type BatonLink =
  | { kind: 'handoff'; handoffId: string; sessionId: string }
  | { kind: 'session'; sessionId: string }
  | { kind: 'pair'; code: string }
  | { kind: 'unknown'; reason: string };
export type KnownBatonLink = Exclude<BatonLink, { kind: 'unknown' }>;

const PREFIX = `${BATON_SCHEME}://`;
/** Printable ASCII without space; everything else (controls, DEL, unicode lookalikes) is refused. */
const PRINTABLE = /^[\x21-\x7e]*$/;

function unknown(reason: string): BatonLink {
  return { kind: 'unknown', reason };
}

/** Splits "a=b&c=d" into pairs, refusing empty pieces, missing '=', and duplicate keys. */
function parseQuery(query: string): Map<string, string> | string {
  const pairs = new Map<string, string>();
  for (const piece of query.split('&')) {
    const eq = piece.indexOf('=');
    if (eq <= 0) return `malformed query piece "${piece.slice(0, 40)}"`;
    const key = piece.slice(0, eq);
    if (pairs.has(key)) return `duplicate query key "${key.slice(0, 40)}"`;
    pairs.set(key, piece.slice(eq + 1));
  }
  return pairs;
}

export function parseBatonUrl(input: unknown): BatonLink {
  if (typeof input !== 'string') return unknown('not a string');
  if (input.length === 0) return unknown('empty');
  if (input.length > MAX_URL_LENGTH) return unknown(`longer than ${MAX_URL_LENGTH} characters`);
  if (input.startsWith('-')) return unknown('starts with "-" (could be read as an option)');
  if (!PRINTABLE.test(input)) return unknown('contains whitespace, control or non-ASCII characters');
  if (input.slice(0, PREFIX.length).toLowerCase() !== PREFIX) return unknown('not a baton:// URL');
  if (input.includes('%')) return unknown('percent-encoding is not allowed');
  if (input.includes('#')) return unknown('fragments are not allowed');
  if (input.includes('\\')) return unknown('backslashes are not allowed');

  const rest = input.slice(PREFIX.length);
  const q = rest.indexOf('?');
  const beforeQuery = q === -1 ? rest : rest.slice(0, q);
  const query = q === -1 ? null : rest.slice(q + 1);
  if (beforeQuery.includes('@')) return unknown('userinfo is not allowed');
  if (beforeQuery.includes(':')) return unknown('ports are not allowed');

  if (beforeQuery.toLowerCase() === 'pair' || beforeQuery.toLowerCase() === 'pair/') return parsePairLink(query);

  const segments = beforeQuery.split('/');
  // "kind/id" or "kind/id/" (the one trailing slash some launchers append).
  if (segments.length === 3 && segments[2] === '') segments.pop();
  if (segments.length !== 2) return unknown('expected baton://<kind>/<id>');
  const [rawKind = '', id = ''] = segments;
  const kind = rawKind.toLowerCase();
  const shownId = id.slice(0, 40); // before the guard: a failed isValidId narrows id to never
  if (!isValidId(id)) return unknown(`"${shownId}" is not a valid id`);

  if (kind === 'session') {
    if (query !== null) return unknown('baton://session/<id> takes no query');
    return { kind: 'session', sessionId: id };
  }
  if (kind === 'handoff') {
    if (query === null) return unknown('baton://handoff/<id> needs ?session=<id>');
    const pairs = parseQuery(query);
    if (typeof pairs === 'string') return unknown(pairs);
    const sessionId = pairs.get('session');
    if (pairs.size !== 1 || sessionId === undefined) return unknown('baton://handoff/<id> takes exactly one query key: session');
    const shownSession = sessionId.slice(0, 40);
    if (!isValidId(sessionId)) return unknown(`"${shownSession}" is not a valid session id`);
    return { kind: 'handoff', handoffId: id, sessionId };
  }
  return unknown(`unknown link kind "${rawKind.slice(0, 40)}"`);
}

/** baton://pair?code=<code>: exactly one query key, a well-formed code (normalised to 32 characters). */
function parsePairLink(query: string | null): BatonLink {
  if (query === null) return unknown('baton://pair needs ?code=<pairing code>');
  const pairs = parseQuery(query);
  if (typeof pairs === 'string') return unknown(pairs);
  const raw = pairs.get('code');
  if (pairs.size !== 1 || raw === undefined) return unknown('baton://pair takes exactly one query key: code');
  const code = normalizePairingCode(raw);
  if (!code) return unknown(`"${raw.slice(0, 40)}" is not a pairing code`);
  return { kind: 'pair', code };
}

/** The canonical URL for a link (lowercase scheme and kind, no trailing slash). Throws on a bad id. */
export function formatBatonUrl(link: KnownBatonLink): string {
  if (link.kind === 'pair') {
    const code = normalizePairingCode(link.code);
    if (!code) throw new RangeError('cannot put that code in a baton:// URL: not a pairing code');
    return `${PREFIX}pair?code=${code}`;
  }
  if (link.kind === 'session') {
    if (!isValidId(link.sessionId)) throw new RangeError(`cannot put "${link.sessionId}" in a baton:// URL: not a valid session id`);
    return `${PREFIX}session/${link.sessionId}`;
  }
  if (!isValidId(link.handoffId)) throw new RangeError(`cannot put "${link.handoffId}" in a baton:// URL: not a valid handoff id`);
  if (!isValidId(link.sessionId)) throw new RangeError(`cannot put "${link.sessionId}" in a baton:// URL: not a valid session id`);
  return `${PREFIX}handoff/${link.handoffId}?session=${link.sessionId}`;
}

function looksLikeBatonUrl(arg: string): boolean {
  return arg.slice(0, PREFIX.length).toLowerCase() === PREFIX;
}

/**
 * The URL an OS launcher passed on the command line, or null. Accepted only when `marker` appears
 * exactly once and exactly one argument follows it, a baton:// URL, and no other argument
 * anywhere looks like one (GitHub Desktop's Windows rule: a URL that smuggles extra arguments,
 * or a baton:// string typed elsewhere on the command line, is not a protocol launch).
 */
export function findBatonUrlInArgv(argv: string[], marker = BATON_URL_MARKER): string | null {
  const at = argv.indexOf(marker);
  if (at === -1 || argv.indexOf(marker, at + 1) !== -1) return null;
  const after = argv.slice(at + 1);
  if (after.length !== 1) return null;
  const url = after[0] as string;
  if (!looksLikeBatonUrl(url)) return null;
  if (argv.slice(0, at).some(looksLikeBatonUrl)) return null;
  return url;
}
