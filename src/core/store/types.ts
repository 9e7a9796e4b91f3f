import type { IndexRow, PermissionState, SessionDoc, SessionSource } from '../../shared/session.js';
import type { MessageInput, MessageRecord } from '../../shared/message.js';
import type { LogBytes } from './log-stream.js';
import type { RecordKeys } from './record-keys.js';

/**
 * The session store's public contract (ARCHITECTURE.md §3). Implemented in ./session-store.ts,
 * opened with `openStore(root)` from ./index.ts. Everything that says "saved" has been fsynced.
 */
export interface NewSession {
  /** Defaults to a fresh id. */
  id?: string;
  parentId?: string | null;
  cwd: string;
  gitRoot: string | null;
  branch: string | null;
  title: string;
  source: SessionSource;
  model?: { name: string; settings?: Record<string, unknown> } | null;
  permission?: PermissionState | null;
  /** The first holder ("terminal", "desktop", …); epoch starts at 1. */
  holder: string;
  /** Extra top-level fields kept in session.json (e.g. workspace snapshot). */
  extra?: Record<string, unknown>;
}

/** An artifact written with a new session, stored as artifacts/<sha256>.<extension>. */
export interface NewArtifact {
  bytes: Uint8Array;
  extension?: string;
  /** Stored under this name (a named artifact: `summary-01.md`) instead of its hash; `extension` is then unused. */
  name?: string;
}

export interface Receipt {
  handoffId: string;
  sessionId: string;
  /** sha256 of the canonical offer payload: the same key with another payload is a CONFLICT. */
  payloadSha256: string;
  /** The first answer, returned again to every replay. */
  answer: Record<string, unknown>;
  createdAt: string;
}

export interface ReadMessagesOptions {
  /** Only records with seq > afterSeq. */
  afterSeq?: number;
  /** At most this many records (from the start of the selection). */
  limit?: number;
  /** Only the last N records; reads from the end of the file, not the whole log. */
  tail?: number;
  /** With `tail`: the last N records with seq < beforeSeq (an older page), found by offset, not by reading the log. */
  beforeSeq?: number;
}

/** A session landed by landSession: its document, the records as written, and the log's bytes as read back. */
/** Part of a new session's messages, with the artifacts (full tool outputs) they refer to. */
export interface LandingBatch {
  messages: readonly MessageInput[];
  artifacts: readonly NewArtifact[];
}

/** How a streamed landing folds repeated ids and reports its records (landSessionStream). */
export interface LandingStreamOptions {
  /** Ids that may occur more than once (a first pass over the input found them): only those are remembered for the fold. */
  repeatedIds?: (id: string) => boolean;
  /** Each record as written, for running totals (digest, summary, anchors). */
  onRecord?: (record: MessageRecord) => void;
  /** session.json fields known only once every message went through (the redaction counts): merged after `init.extra`. */
  lateExtra?: () => Record<string, unknown>;
  /**
   * The session's directory fields known only once the last batch was made (a handoff's workspace
   * capture, which runs while the messages are written): they replace `init`'s, which stand in
   * until then (the document is checked with them before anything is written).
   */
  lateDirectory?: () => Pick<NewSession, 'cwd' | 'gitRoot' | 'branch'>;
}

/** A streamed landing's result: the document, the log as read back, and how many records it holds. */
export interface LandedStream {
  session: SessionDoc;
  log: LogBytes;
  count: number;
}

export interface LandedLog {
  session: SessionDoc;
  records: MessageRecord[];
  log: LogBytes;
}

export interface SessionStore {
  readonly root: string;
  /** True when the store was written by a newer major version: every write throws READ_ONLY. */
  readonly readOnly: boolean;
  /** `artifacts` (content-addressed, e.g. full tool outputs the messages refer to) land atomically with the session. */
  createSession(init: NewSession, messages?: MessageInput[], artifacts?: readonly NewArtifact[]): Promise<SessionDoc>;
  /**
   * createSession, then one streaming read-back of the log that checks every line's checksum
   * against the record written there and hashes the bytes (IO_ERROR when they differ).
   */
  landSession(init: NewSession, messages?: MessageInput[], artifacts?: readonly NewArtifact[]): Promise<LandedLog>;
  /**
   * landSession for an input that is never held whole (issue 20): the messages arrive in batches
   * (redacted and trimmed), are folded, written and checksummed as they come, and the log is read
   * back as landSession does. The records are not kept: `onRecord` sees each one as written.
   */
  landSessionStream(init: NewSession, batches: AsyncIterable<LandingBatch>, options?: LandingStreamOptions): Promise<LandedStream>;
  /** One streaming pass over messages.jsonl (its first `upTo` bytes): each complete record line, opened, to `onLine`; the bytes on disk hashed. */
  /**
   * The first `upTo` bytes of messages.jsonl as stored (ciphertext when encrypted at rest): their
   * sha256 and how many complete lines they hold. Nothing is opened or parsed (verify-offer.ts).
   */
  hashStoredLog(id: string, upTo: number): Promise<LogBytes & { lines: number }>;
  streamMessages(id: string, onLine: (line: Buffer, start: number) => void | Promise<void>, upTo?: number): Promise<LogBytes>;
  /**
   * Every message in order, streamed (bounded memory), as its line (opened, valid during the call)
   * and its id, seq and checksum, found without parsing the record where its bytes allow
   * (record-keys.ts; `keys.record` when it was parsed); the same records as readMessages, and
   * damage the pass comes across is recorded as readMessages records it. Resolves to the count.
   * `onChunk` sees each chunk of the file as read, before its lines (a plaintext log's lines are
   * slices of it: a printer can splice them in place, record-json-writer.ts).
   */
  forEachMessageLine(id: string, onRecord: (keys: RecordKeys, line: Buffer) => void | Promise<void>, onChunk?: (chunk: Buffer) => void): Promise<number>;
  /** Throws StoreError NOT_FOUND. Archived sessions are found too. */
  getSession(id: string): Promise<SessionDoc>;
  /** Appends as holder `epoch`; resolves after the records are fsynced. STALE_HOLDER if epoch is old. */
  append(id: string, epoch: number, messages: MessageInput[]): Promise<MessageRecord[]>;
  readMessages(id: string, options?: ReadMessagesOptions): Promise<MessageRecord[]>;
  /** Compare-and-swap on `revision`; CONFLICT when another writer got there first. */
  update(id: string, expectedRevision: number, mutate: (doc: SessionDoc) => SessionDoc): Promise<SessionDoc>;
  /**
   * Read-modify-write with compare-and-swap retries: `change` sees the current document (again on
   * each retry) and returns the next one, or undefined to write nothing. Use this, not a loop over update().
   */
  mutate(id: string, change: (doc: SessionDoc) => SessionDoc | undefined | Promise<SessionDoc | undefined>): Promise<SessionDoc>;
  /** Takes the baton: holder = who, epoch + 1. */
  claim(id: string, who: string): Promise<SessionDoc>;
  /** A new session with parentId = id holding records 0..uptoSeq. */
  fork(id: string, uptoSeq: number, who: string): Promise<SessionDoc>;
  /** Moves the session under archived/ and keeps its index row (archived: true). */
  archive(id: string): Promise<void>;
  /** Removes every file of the session (live or archived), its receipts and index row; crash-safe (delete-session.ts). NOT_FOUND if absent. */
  delete(id: string): Promise<void>;
  /** Resume candidates from index.json only; never reads a messages.jsonl. */
  list(options?: { includeArchived?: boolean }): Promise<IndexRow[]>;
  sessionDir(id: string): string;
  /** Stores bytes under artifacts/ by sha256; idempotent. */
  putArtifact(id: string, bytes: Uint8Array, extension?: string): Promise<{ sha256: string; ref: string }>;
  /** Checks the bytes against the hash in a content-addressed ref, or against `expectedSha256` (needed for named refs). */
  readArtifact(id: string, ref: string, expectedSha256?: string): Promise<Uint8Array>;
  /** Writes artifacts/<name> once (e.g. summary-03.md); the same bytes again are a no-op, other bytes CONFLICT. */
  putNamedArtifact(id: string, name: string, bytes: Uint8Array): Promise<{ sha256: string; ref: string }>;
  /** handoff.json (latest) and a line in handoffs.jsonl (history). */
  recordHandoff(id: string, manifest: Record<string, unknown>): Promise<void>;
  getReceipt(handoffId: string): Promise<Receipt | undefined>;
  /** Atomic create; if a receipt for handoffId exists already, returns that one instead. */
  putReceipt(receipt: Receipt): Promise<Receipt>;
  /** One line in events.jsonl (observability); fsynced. */
  appendEvent(event: Record<string, unknown>): Promise<void>;
  readEvents(): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}
