import type { Manifest } from '../../shared/manifest.js';
import type { MessageRecord } from '../../shared/message.js';
import type { SessionStore } from '../store/types.js';
import { decodeLine } from '../store/record-codec.js';
import { digestMessages } from './context-digest.js';
import { verifyContext } from '../context/verify-context.js';
import { verifyModel } from './manifest-model.js';

export interface FieldMismatch {
  field: string;
  expected: unknown;
  actual: unknown;
}

/**
 * Checks the manifest's claims against the files on disk: the message count and hashes and the
 * workspace root. Returns every field that differs; an empty list means the disk agrees. A
 * manifest that states the log's bytes is checked by hashing them (verifyByLogBytes); one
 * without (a re-offer, an older sender) by reading every record.
 */
export async function verifyAgainstDisk(store: SessionStore, manifest: Manifest): Promise<FieldMismatch[]> {
  const session = await store.getSession(manifest.session_id);
  const stored = await verifyByStoredBytes(store, manifest, session.gitRoot ?? session.cwd);
  if (stored) return stored;
  if (manifest.context.log_bytes !== undefined && manifest.context.log_sha256 !== undefined) return verifyByLogBytes(store, manifest, session.gitRoot ?? session.cwd);
  const records = await store.readMessages(manifest.session_id);
  const actual = digestMessages(records);
  const claimed = manifest.context;
  const mismatches: FieldMismatch[] = [];
  const compare = (field: string, expected: unknown, value: unknown) => {
    if (expected !== value) mismatches.push({ field, expected, actual: value });
  };
  compare('context.message_count', claimed.message_count, actual.message_count);
  compare('context.messages_sha256', claimed.messages_sha256, actual.messages_sha256);
  compare('context.tool_calls_count', claimed.tool_calls_count, actual.tool_calls_count);
  compare('context.tool_calls_sha256', claimed.tool_calls_sha256, actual.tool_calls_sha256);
  compare('workspace.root', manifest.workspace.root, session.gitRoot ?? session.cwd);
  mismatches.push(...(await verifyContext(store, manifest, records)));
  mismatches.push(...(await verifyModel(store, manifest)));
  return mismatches;
}

/** A line that may name a trimmed output's artifact (a record's own or a tool call's): only these are parsed. */
const FULL_OUTPUT_KEY = Buffer.from('"fullOutput":');

/**
 * The check when the sender stated the log's size and sha256 as its landing read it back: one
 * streaming hash of those bytes on disk. Equal bytes are the records the sender counted and
 * hashed (counts, message and tool-call hashes, anchors), so nothing is parsed again except the
 * few lines that name a full-output artifact, whose files are checked against their hashes.
 */
async function verifyByLogBytes(store: SessionStore, manifest: Manifest, root: string): Promise<FieldMismatch[]> {
  const claimed = manifest.context;
  const withOutputs: MessageRecord[] = [];
  let lines = 0;
  const read = await store.streamMessages(
    manifest.session_id,
    (line) => {
      lines++;
      if (line.indexOf(FULL_OUTPUT_KEY) === -1) return;
      const record = decodeLine(line);
      if (record) withOutputs.push(record);
    },
    claimed.log_bytes,
  );
  const mismatches: FieldMismatch[] = [];
  const compare = (field: string, expected: unknown, value: unknown) => {
    if (expected !== value) mismatches.push({ field, expected, actual: value });
  };
  compare('context.log_bytes', claimed.log_bytes, read.bytes);
  compare('context.log_sha256', claimed.log_sha256, read.sha256);
  compare('context.message_count', claimed.message_count, lines);
  compare('workspace.root', manifest.workspace.root, root);
  // Anchors are ids of records the hash covers (when it differs, the offer is refused anyway).
  mismatches.push(...(await verifyContext(store, manifest, withOutputs, { anchorsInLog: true })));
  mismatches.push(...(await verifyModel(store, manifest)));
  return mismatches;
}

/**
 * The check of a log encrypted at rest when the manifest states its stored bytes (1.1): the same
 * store (a local handoff) holds the very bytes the sender read back, so one streaming sha256 of
 * the file, without decrypting a record, proves every record the sender counted and hashed. Bytes
 * that differ (another store's key: relay, ssh, bundles; or damage) return undefined, and the
 * plaintext checks decide.
 */
async function verifyByStoredBytes(store: SessionStore, manifest: Manifest, root: string): Promise<FieldMismatch[] | undefined> {
  const claimed = manifest.context;
  if (claimed.log_stored_bytes === undefined || claimed.log_stored_sha256 === undefined || claimed.full_outputs === undefined) return undefined;
  const read = await store.hashStoredLog(manifest.session_id, claimed.log_stored_bytes);
  if (read.bytes !== claimed.log_stored_bytes || read.sha256 !== claimed.log_stored_sha256) return undefined;
  const mismatches: FieldMismatch[] = [];
  if (read.lines !== claimed.message_count) mismatches.push({ field: 'context.message_count', expected: claimed.message_count, actual: read.lines });
  if (manifest.workspace.root !== root) mismatches.push({ field: 'workspace.root', expected: manifest.workspace.root, actual: root });
  mismatches.push(...(await verifyContext(store, manifest, [], { anchorsInLog: true, fullOutputs: claimed.full_outputs })));
  mismatches.push(...(await verifyModel(store, manifest)));
  return mismatches;
}
