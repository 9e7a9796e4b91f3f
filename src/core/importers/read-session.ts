import { basename, join, resolve, sep } from 'node:path';
import { ErrorCode } from '../../shared/error-codes.js';
import { externalIdFor, candidateFromState } from './candidate.js';
import { ClaudeConverter } from './claude-convert.js';
import { codexIdFromFile } from './codex-format.js';
import { CodexConverter } from './codex-convert.js';
import { ClaudeTaskScanner } from './claude-tasks.js';
import { CodexTaskScanner } from './codex-tasks.js';
import { CodexPermissionScanner } from './codex-permissions.js';
import { CodexModelScanner } from './codex-model.js';
import { feedDigest, messagesOf, newDigest, settleDigest } from './digest.js';
import { discoverSessionFiles } from './discover.js';
import { fromReadError, ImporterError } from './errors.js';
import { sourceFingerprint } from './fingerprint.js';
import { FULL_READ_MAX_BYTES } from './limits.js';
import { forEachLine } from './lines.js';
import { claudeProjectsDir, codexSessionsDir, isInside, locateAgentDirs, realToolRoot } from './locate.js';
import { CLAUDE_IGNORED_TYPES } from './claude-format.js';
import { CODEX_TOP_TYPES } from './codex-format.js';
import { isRecord } from './text.js';
import { nodeImportReader, type ImportReader } from './reader.js';
import { summarizeFile } from './summarize-file.js';
import { emptyReadStats, resumeCommandFor, type AgentSource, type ImportedCandidate, type ImportedSession, type ReadStats } from './types.js';
import { ArraySink, type ConvertSink, type TranscriptConverter } from './convert-sink.js';

export interface ReadOptions {
  reader?: ImportReader;
  /**
   * Count `stats.danglingParents` (default true). It remembers every uuid of the file: ~80 bytes
   * a line, 60 MB for a 1 GB transcript. The import does not report it and turns it off.
   */
  countDanglingParents?: boolean;
}

/** A tool's session id: what `--session ID` may be (no separators, nothing to escape a folder). */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

function looksLikePath(value: string): boolean {
  return value.includes('/') || value.includes(sep) || value.endsWith('.jsonl') || value.endsWith('.zst');
}

/** Finds the log of session `id`: Claude by file name in any project folder, Codex by the id in the rollout name. */
export async function resolveSessionPath(source: AgentSource, pathOrId: string, env: NodeJS.ProcessEnv = process.env, reader: ImportReader = nodeImportReader): Promise<string> {
  if (looksLikePath(pathOrId)) return resolve(pathOrId);
  const dirs = locateAgentDirs(env);
  if (!SESSION_ID.test(pathOrId) || pathOrId.includes('..'))
    throw new ImporterError(ErrorCode.BAD_REQUEST, `"${pathOrId}" is not a session id or a path to a session file.`, pathOrId);
  const { files } = await discoverSessionFiles(reader, dirs, source);
  const match = files.find((f) => (source === 'claude' ? basename(f.path) === `${pathOrId}.jsonl` : codexIdFromFile(basename(f.path)) === pathOrId));
  if (match) return match.path;
  const where = source === 'claude' ? claudeProjectsDir(dirs) : codexSessionsDir(dirs);
  throw new ImporterError(ErrorCode.NOT_FOUND, `No ${source === 'claude' ? 'Claude Code' : 'Codex'} session "${pathOrId}" under ${where}. Run \`baton list\` to see the sessions Baton found.`, join(where, pathOrId));
}

/** What an import knows of a session besides its messages. */
export type ImportedFacts = Omit<ImportedSession, 'messages'>;

/** One read of a transcript: its facts, and the size and mtime it had (the second read checks them). */
export interface TranscriptRead {
  facts: ImportedFacts;
  size: number;
  mtimeMs: number;
}

/**
 * Reads one whole session log and converts it for `baton handoff --from claude|codex`. Streams
 * the file (bounded memory), never writes to it. Torn, unknown and dangling lines are counted in
 * `stats`, never fatal. Throws ImporterError NOT_FOUND / ACCESS_DENIED / IO_ERROR / BAD_REQUEST.
 * The messages are held whole here (previews, agent-log sync); the import streams them instead
 * (import-transcript.ts).
 */
export async function readAgentSession(source: AgentSource, pathOrId: string, env: NodeJS.ProcessEnv = process.env, options: ReadOptions = {}): Promise<ImportedSession> {
  const sink = new ArraySink();
  const { facts } = await readTranscript(source, pathOrId, env, options, (stats) => newConverter(source, stats, sink));
  return { ...facts, messages: sink.messages };
}

/** Opens a transcript for a full read; a failure becomes the importer's error naming the path. */
export async function openTranscript(reader: ImportReader, path: string): ReturnType<ImportReader['open']> {
  try {
    return await reader.open(path);
  } catch (error) {
    throw fromReadError(error, path);
  }
}

export function newConverter(source: AgentSource, stats: ReadStats, sink: ConvertSink): TranscriptConverter {
  return source === 'claude' ? new ClaudeConverter(stats, sink) : new CodexConverter(stats, sink);
}

/**
 * The one pass over a transcript: each line parsed once and fed to the digest, the task and
 * permission scanners and `converter` (whose sink decides what is kept of the messages).
 */
export async function readTranscript(
  source: AgentSource,
  pathOrId: string,
  env: NodeJS.ProcessEnv,
  options: ReadOptions,
  makeConverter: (stats: ReadStats) => TranscriptConverter,
): Promise<TranscriptRead> {
  const reader = options.reader ?? nodeImportReader;
  const path = await resolveSessionPath(source, pathOrId, env, reader);
  if (path.endsWith('.zst'))
    throw new ImporterError(ErrorCode.BAD_REQUEST, `${path} is zstd-compressed and Baton cannot read it here. Decompress it (zstd -d) next to the original and import the .jsonl.`, path);
  let size: number;
  let mtimeMs: number;
  try {
    const stat = await reader.stat(path);
    if (!stat.isFile) throw new ImporterError(ErrorCode.BAD_REQUEST, `${path} is not a regular file.`, path);
    size = stat.size;
    mtimeMs = stat.mtimeMs;
  } catch (error) {
    throw fromReadError(error, path);
  }
  if (size > FULL_READ_MAX_BYTES)
    throw new ImporterError(ErrorCode.BAD_REQUEST, `${path} is ${size} bytes, over the import limit of ${FULL_READ_MAX_BYTES}; Baton does not load it whole.`, path);

  const inside = await insideToolFolder(reader, source, path, env);

  const stats = emptyReadStats();
  const digest = newDigest(source);
  const known = options.countDanglingParents === false ? undefined : new Set<string>();
  const converter = makeConverter(stats);
  const tasks = source === 'claude' ? new ClaudeTaskScanner() : new CodexTaskScanner();
  const codexPermission = new CodexPermissionScanner();
  const codexModel = new CodexModelScanner(path);
  let lineNo = 0;
  let firstIsRecord = false;
  const handle = await openTranscript(reader, path);
  try {
    await forEachLine(handle, 0, size, (line) => {
      lineNo += 1;
      stats.lines += 1;
      if (lineNo === 1) firstIsRecord = !line.broken && isRecordOf(source, line.value);
      feedDigest(digest, line, known);
      converter.feed(line, lineNo);
      tasks.feed(line);
      if (source === 'codex') {
        codexPermission.feed(line, lineNo);
        codexModel.feed(line, lineNo);
      }
    });
  } catch (error) {
    throw fromReadError(error, path);
  } finally {
    await handle.close();
  }
  settleDigest(digest);
  // Never quote the file: it may be /etc/shadow. Name the path and what was expected only.
  const tool = TOOL_NAMES[source];
  if (!inside && !firstIsRecord) {
    throw new ImporterError(
      ErrorCode.BAD_REQUEST,
      `${path} is outside ${source === 'claude' ? claudeProjectsDir(locateAgentDirs(env)) : codexSessionsDir(locateAgentDirs(env))} and does not start like a ${tool} session log; Baton imports only ${tool} session logs. Nothing was imported.`,
      path,
    );
  }
  if (digest.externalId === null) {
    throw new ImporterError(ErrorCode.BAD_REQUEST, `${path} is not a ${tool} session log: none of its ${lineNo} lines is a ${tool} record with a session id. Nothing was imported.`, path);
  }
  stats.tornLines = digest.brokenLines + (digest.tornTail ? 1 : 0);
  stats.unknownTypes = digest.unknownTypes;
  stats.danglingParents = digest.danglingParents;
  const externalId = externalIdFor(source, path, digest.externalId);
  const facts: ImportedFacts = {
    source,
    externalId,
    path,
    cwd: digest.cwd,
    branch: digest.branch,
    model: converter.meta.model ?? digest.model,
    permissionMode: converter.meta.permissionMode ?? digest.permissionMode,
    cliVersion: digest.cliVersion,
    title: digest.title,
    tasks: tasks.result(),
    codexPermission: source === 'codex' ? codexPermission.result(path) : null,
    codexModel: source === 'codex' ? codexModel.result() : null,
    fingerprint: sourceFingerprint(source, path, digest.endOffset, digest.lastKey),
    resumeCommand: resumeCommandFor(source, externalId),
    stats,
  };
  return { facts, size, mtimeMs };
}

const TOOL_NAMES: Record<AgentSource, string> = { claude: 'Claude Code', codex: 'Codex' };

/** A parsed line that is one of the tool's own record types (not merely some JSON). */
function isRecordOf(source: AgentSource, value: unknown): boolean {
  if (!isRecord(value) || typeof value.type !== 'string') return false;
  if (source === 'codex') return CODEX_TOP_TYPES.has(value.type);
  return value.type === 'user' || value.type === 'assistant' || value.type === 'system' || CLAUDE_IGNORED_TYPES.has(value.type);
}

/** Whether the file, links resolved, lies in the tool's folder (~/.claude, ~/.codex). */
async function insideToolFolder(reader: ImportReader, source: AgentSource, path: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const dirs = locateAgentDirs(env);
  const boundary = await realToolRoot(reader, source === 'claude' ? dirs.claude : dirs.codex);
  if (boundary === null || !reader.realpath) return false;
  const real = await reader.realpath(path).catch(() => null);
  return real !== null && isInside(real, boundary);
}

export interface LatestOptions extends ReadOptions {
  /** Only sessions started in this directory (e.g. the terminal's cwd). */
  cwd?: string;
}

/**
 * The most recently written session of `source` (by file mtime) that has messages, for
 * `baton handoff --from <tool> --latest`; null when there is none. Reads head + tail only.
 */
export async function findLatestSession(source: AgentSource, env: NodeJS.ProcessEnv = process.env, options: LatestOptions = {}): Promise<ImportedCandidate | null> {
  const reader = options.reader ?? nodeImportReader;
  const { files } = await discoverSessionFiles(reader, locateAgentDirs(env), source);
  const stated: { path: string; size: number; mtimeMs: number }[] = [];
  for (const file of files) {
    if (file.compressed) continue;
    try {
      const s = await reader.stat(file.path);
      if (s.isFile && s.size > 0) stated.push({ path: file.path, size: s.size, mtimeMs: s.mtimeMs });
    } catch {
      // Vanished or unreadable: not a candidate for --latest.
    }
  }
  stated.sort((a, b) => b.mtimeMs - a.mtimeMs);
  const wantCwd = options.cwd ? resolve(options.cwd) : undefined;
  for (const file of stated) {
    try {
      const { state } = await summarizeFile(reader, source, file.path, file);
      if (messagesOf(state.digest) === 0) continue;
      if (wantCwd && state.digest.cwd !== wantCwd) continue;
      return candidateFromState(source, file.path, state);
    } catch {
      // An unreadable file is not "the latest session": try the next one.
    }
  }
  return null;
}
