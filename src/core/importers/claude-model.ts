import { join } from 'node:path';
import { locateAgentDirs } from './locate.js';
import { hashInstructionsFile, settingString, type ModelSettings } from './model-settings.js';
import { readSettingsJson } from './settings-file.js';
import { isRecord } from './text.js';

export interface ClaudeModelInput {
  /** The model of the transcript's last assistant message. */
  model: string;
  /** The transcript's Claude Code `version`. */
  cliVersion: string | null;
  /** The session's working directory: its `.claude/settings*.json` and CLAUDE.md are the project's. */
  cwd: string | null;
  env?: NodeJS.ProcessEnv;
}

/**
 * The model configuration of a Claude Code session: the transcript's model and version, the
 * `model` and `outputStyle` keys of the user and project settings (most specific file wins, as in
 * Claude Code; no other key is taken), and the CLAUDE.md files in force, by path and sha256.
 */
export async function claudeModelSettings(input: ClaudeModelInput): Promise<ModelSettings> {
  const userDir = locateAgentDirs(input.env ?? process.env).claude;
  const files = [join(userDir, 'settings.json')];
  if (input.cwd) files.push(join(input.cwd, '.claude', 'settings.json'), join(input.cwd, '.claude', 'settings.local.json'));
  const out: ModelSettings = { sourceTool: 'claude', model: input.model, instructions: [], sources: [] };
  if (input.cliVersion) out.clientVersion = input.cliVersion;
  for (const path of files) {
    const read = await readSettingsJson(path);
    if (read === null) continue;
    if ('error' in read) {
      out.sources.push({ path, error: read.error });
      continue;
    }
    out.sources.push({ path });
    if (!isRecord(read.json)) continue;
    const model = settingString(read.json.model);
    const style = settingString(read.json.outputStyle);
    if (model) out.settingsModel = model;
    if (style) out.outputStyle = style;
  }
  const instructionFiles = [join(userDir, 'CLAUDE.md')];
  if (input.cwd) instructionFiles.push(join(input.cwd, 'CLAUDE.md'), join(input.cwd, '.claude', 'CLAUDE.md'), join(input.cwd, 'CLAUDE.local.md'));
  for (const path of instructionFiles) {
    const hashed = await hashInstructionsFile(path);
    if (hashed === null) continue;
    if ('error' in hashed) out.sources.push({ path, error: hashed.error });
    else out.instructions.push(hashed);
  }
  return out;
}
