import { RECENT_RESPONSE_IDS } from './limits.js';
import type { LogLine } from './lines.js';
import { lineKey } from './lines.js';
import { classifyClaudeUser, claudeModel, claudeResponseId, claudeText, CLAUDE_IGNORED_TYPES } from './claude-format.js';
import { codexPermissionMode, codexText, CODEX_IGNORED_ITEMS, CODEX_CALL_TYPES, CODEX_OUTPUT_TYPES, CODEX_TOP_TYPES, isInstructionText } from './codex-format.js';
import { isoOf, isRecord, laterIso, str, toTitle } from './text.js';
import type { AgentSource } from './types.js';

/**
 * What a scan keeps about one log: enough for a resume candidate and for continuing an
 * append-only file from where the last scan stopped. Plain JSON: it lives in the scan cache.
 */
export interface SessionDigest {
  source: AgentSource;
  externalId: string | null;
  cwd: string | null;
  branch: string | null;
  title: string;
  model: string | null;
  cliVersion: string | null;
  permissionMode: string | null;
  updatedAt: string | null;
  userCount: number;
  assistantCount: number;
  /** Messages estimated for the unread middle of a large file (0 when read whole). */
  estimated: number;
  /** Recent Claude message.ids, so the lines of one response count once. */
  recentResponseIds: string[];
  /** Unparseable complete lines (damage). */
  brokenLines: number;
  /** The final line is unterminated and does not parse (a write in progress or torn). */
  tornTail: boolean;
  unknownTypes: number;
  danglingParents: number;
  compactions: number;
  /** Codex: a run of tool calls with no message between them becomes one assistant message. */
  openCallGroup: boolean;
  /** Offset after the last complete line: where an append-only continuation starts. */
  endOffset: number;
  /** Key of the last line that parsed (see lines.ts lineKey). */
  lastKey: string | null;
}

export function newDigest(source: AgentSource): SessionDigest {
  return {
    source,
    externalId: null,
    cwd: null,
    branch: null,
    title: '',
    model: null,
    cliVersion: null,
    permissionMode: null,
    updatedAt: null,
    userCount: 0,
    assistantCount: 0,
    estimated: 0,
    recentResponseIds: [],
    brokenLines: 0,
    tornTail: false,
    unknownTypes: 0,
    danglingParents: 0,
    compactions: 0,
    openCallGroup: false,
    endOffset: 0,
    lastKey: null,
  };
}

/** The last line that parsed, per digest; hashed once by settleDigest rather than on every line. */
const lastParsed = new WeakMap<SessionDigest, string>();

/** Sets lastKey from the last line fed. Call before reading lastKey or storing the digest. */
export function settleDigest(d: SessionDigest): SessionDigest {
  const text = lastParsed.get(d);
  if (text !== undefined) {
    d.lastKey = lineKey(text);
    lastParsed.delete(d);
  }
  return d;
}

export function messagesOf(d: SessionDigest): number {
  return d.userCount + d.assistantCount + d.estimated;
}

/**
 * `knownUuids` is given only while reading from the start of the file: a parent can only be
 * judged dangling when every earlier line has been seen.
 */
export function feedDigest(d: SessionDigest, line: LogLine, knownUuids?: Set<string>): void {
  if (line.broken) {
    if (line.terminated) {
      d.brokenLines += 1;
      d.endOffset = line.end;
    } else d.tornTail = true;
    return;
  }
  d.endOffset = line.end;
  d.tornTail = false;
  lastParsed.set(d, line.text);
  if (!isRecord(line.value)) {
    d.unknownTypes += 1;
    return;
  }
  if (d.source === 'claude') feedClaude(d, line.value, knownUuids);
  else feedCodex(d, line.value);
}

function feedClaude(d: SessionDigest, v: Record<string, unknown>, knownUuids?: Set<string>): void {
  d.updatedAt = laterIso(d.updatedAt ?? undefined, isoOf(v.timestamp)) ?? null;
  if (knownUuids) {
    const parent = str(v.parentUuid);
    if (parent && !knownUuids.has(parent)) d.danglingParents += 1;
    const uuid = str(v.uuid);
    if (uuid) knownUuids.add(uuid);
  }
  const type = v.type;
  if (type !== 'user' && type !== 'assistant' && type !== 'system') {
    if (typeof type !== 'string' || !CLAUDE_IGNORED_TYPES.has(type)) d.unknownTypes += 1;
    return;
  }
  d.cwd ??= str(v.cwd) ?? null;
  d.branch = str(v.gitBranch) ?? d.branch;
  d.cliVersion = str(v.version) ?? d.cliVersion;
  d.externalId ??= str(v.sessionId) ?? null;
  if (type === 'system') {
    if (v.subtype === 'compact_boundary') d.compactions += 1;
    return;
  }
  if (v.isSidechain === true) return;
  if (type === 'user') {
    d.permissionMode = str(v.permissionMode) ?? d.permissionMode;
    if (classifyClaudeUser(v) !== 'prompt') return;
    d.userCount += 1;
    if (!d.title) d.title = toTitle(claudeText(isRecord(v.message) ? v.message.content : undefined));
    return;
  }
  d.model = claudeModel(v) ?? d.model;
  const id = claudeResponseId(v) ?? str(v.uuid);
  if (id && d.recentResponseIds.includes(id)) return;
  d.assistantCount += 1;
  if (id) {
    d.recentResponseIds.push(id);
    if (d.recentResponseIds.length > RECENT_RESPONSE_IDS) d.recentResponseIds.shift();
  }
}

function feedCodex(d: SessionDigest, v: Record<string, unknown>): void {
  d.updatedAt = laterIso(d.updatedAt ?? undefined, isoOf(v.timestamp)) ?? null;
  const type = v.type;
  const p = isRecord(v.payload) ? v.payload : {};
  if (typeof type !== 'string' || !CODEX_TOP_TYPES.has(type)) {
    d.unknownTypes += 1;
    return;
  }
  if (type === 'session_meta') {
    d.externalId ??= str(p.id) ?? null;
    d.cwd ??= str(p.cwd) ?? null;
    d.cliVersion = str(p.cli_version) ?? d.cliVersion;
    if (isRecord(p.git)) d.branch = str(p.git.branch) ?? d.branch;
  } else if (type === 'turn_context') {
    d.model = str(p.model) ?? d.model;
    d.permissionMode = codexPermissionMode(p) ?? d.permissionMode;
    d.cwd ??= str(p.cwd) ?? null;
  } else if (type === 'compacted') {
    d.compactions += 1;
  } else if (type === 'response_item') {
    const item = p.type;
    if (item === 'message') {
      d.openCallGroup = false;
      const text = codexText(p.content);
      if (p.role === 'user' && !isInstructionText(text)) {
        d.userCount += 1;
        if (!d.title) d.title = toTitle(text);
      } else if (p.role === 'assistant') d.assistantCount += 1;
    } else if (typeof item === 'string' && CODEX_CALL_TYPES.has(item)) {
      if (!d.openCallGroup) d.assistantCount += 1;
      d.openCallGroup = true;
    } else if (typeof item !== 'string' || !(CODEX_OUTPUT_TYPES.has(item) || CODEX_IGNORED_ITEMS.has(item))) {
      d.unknownTypes += 1;
    }
  }
}
