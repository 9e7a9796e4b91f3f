import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { describeZodError } from '../../shared/manifest.js';
import { normalizeAbsolute } from '../policy/paths.js';
import type { PermissionPolicy } from '../policy/narrow.js';

/** `<dataDir>/policy.json`: what this host allows a handed-off session at most (optional). */
export const HOST_POLICY_FILE = 'policy.json';
export const HOST_POLICY_MAX_BYTES = 256 * 1024;
/** Without a policy file a host never lets a session skip every question. */
export const DEFAULT_HOST_MODE = 'acceptEdits';

const HostPolicyFile = z.strictObject({
  mode: z.enum(['plan', 'default', 'acceptEdits', 'bypassPermissions']).optional(),
  allow: z.array(z.string().max(4_096)).max(10_000).optional(),
  deny: z.array(z.string().max(4_096)).max(10_000).optional(),
  roots: z.array(z.string().max(4_096)).max(1_000).optional(),
});

/**
 * This host's policy for one incoming session. With `policy.json`: its mode, rules and roots
 * (roots default to the session's workspace). Without one: the rules the user wrote for the
 * session (same user, same machine), the mode capped at DEFAULT_HOST_MODE, the session's
 * workspace as the only root, and no grants — so "allow for this session" grants survive only
 * where a written allow rule covers them. Throws with the file's path when the file is invalid.
 */
export async function hostPolicyFor(dataDir: string, source: PermissionPolicy, workspaceRoot: string): Promise<PermissionPolicy> {
  const file = join(dataDir, HOST_POLICY_FILE);
  let text: string | null = null;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw Object.assign(new Error(`Cannot read the host policy ${file}: ${(error as Error).message}`), { code: 'IO_ERROR' });
  }
  if (text === null) return { mode: DEFAULT_HOST_MODE, allow: [...source.allow], deny: [], roots: [normalizeAbsolute(workspaceRoot)], grants: [] };
  if (Buffer.byteLength(text) > HOST_POLICY_MAX_BYTES) throw Object.assign(new Error(`The host policy ${file} is over ${HOST_POLICY_MAX_BYTES} bytes.`), { code: 'BAD_REQUEST' });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw Object.assign(new Error(`The host policy ${file} is not JSON: ${(error as Error).message}`), { code: 'BAD_REQUEST' });
  }
  const parsed = HostPolicyFile.safeParse(json);
  if (!parsed.success) throw Object.assign(new Error(`The host policy ${file} is not valid: ${describeZodError(parsed.error)}`), { code: 'BAD_REQUEST' });
  const p = parsed.data;
  return {
    mode: p.mode ?? DEFAULT_HOST_MODE,
    allow: p.allow ?? [],
    deny: p.deny ?? [],
    roots: (p.roots ?? [workspaceRoot]).map((r) => normalizeAbsolute(r)),
    grants: [],
  };
}
