import type { Manifest } from '../../shared/manifest.js';
import type { SessionStore } from '../store/types.js';
import { digestMessages } from './context-digest.js';
import { verifyContext } from '../context/verify-context.js';

export interface FieldMismatch {
  field: string;
  expected: unknown;
  actual: unknown;
}

/**
 * Checks the manifest's claims against the files on disk: the message count and hashes and the
 * workspace root. Returns every field that differs; an empty list means the disk agrees.
 */
export async function verifyAgainstDisk(store: SessionStore, manifest: Manifest): Promise<FieldMismatch[]> {
  const session = await store.getSession(manifest.session_id);
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
  return mismatches;
}
