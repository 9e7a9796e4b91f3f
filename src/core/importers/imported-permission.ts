import type { PermissionState } from '../../shared/session-fields/permission.js';
import { claudePermissionState } from './claude-permissions.js';
import type { ImportedSession } from './types.js';

/**
 * The permission state an imported session carries: Claude Code's transcript mode with its user
 * and project settings, or Codex's last turn_context. Null when the log says nothing about it.
 */
export async function importedPermission(imported: Omit<ImportedSession, 'messages'>, env: NodeJS.ProcessEnv = process.env): Promise<PermissionState | null> {
  if (imported.source === 'codex') return imported.codexPermission;
  return claudePermissionState({ transcriptMode: imported.permissionMode, transcriptPath: imported.path, cwd: imported.cwd, env });
}
