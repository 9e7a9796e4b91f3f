import { claudeModelSettings } from './claude-model.js';
import type { ModelSettings } from './model-settings.js';
import type { ImportedSession } from './types.js';

/** A session's model and its settings as session.json's `model` holds them. */
export interface ImportedModel {
  name: string;
  settings: ModelSettings & Record<string, unknown>;
}

/**
 * The model configuration an imported session carries: Claude Code's transcript model with the
 * listed keys of its settings files and its CLAUDE.md hashes, or Codex's session_meta and last
 * turn_context. Null when the log names no model.
 */
export async function importedModel(imported: Omit<ImportedSession, 'messages'>, env: NodeJS.ProcessEnv = process.env): Promise<ImportedModel | null> {
  if (imported.source === 'codex') {
    const settings = imported.codexModel;
    return settings ? { name: settings.model, settings: { ...settings } } : imported.model ? { name: imported.model, settings: { sourceTool: 'codex', model: imported.model, instructions: [], sources: [] } } : null;
  }
  if (!imported.model) return null;
  const settings = await claudeModelSettings({ model: imported.model, cliVersion: imported.cliVersion, cwd: imported.cwd, env });
  return { name: imported.model, settings: { ...settings } };
}
