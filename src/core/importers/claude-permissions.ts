import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { PermissionSource, PermissionState } from '../../shared/session-fields/permission.js';
import { locateAgentDirs } from './locate.js';
import { readSettingsJson } from './settings-file.js';
import { isRecord } from './text.js';

export { SETTINGS_MAX_BYTES } from './settings-file.js';
export const MAX_RULES_PER_FILE = 10_000;
export const RULE_MAX_CHARS = 4_096;

interface SettingsRead {
  source: PermissionSource & { error?: string };
  allow: string[];
  deny: string[];
  dirs: string[];
  defaultMode: string | null;
}

function strings(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((r): r is string => typeof r === 'string' && r.length > 0 && r.length <= RULE_MAX_CHARS).slice(0, MAX_RULES_PER_FILE);
}

/** Reads one settings file (read-only, size-limited); a missing file is null, a bad one is a source with its error. */
export async function readClaudeSettings(path: string, kind: PermissionSource['kind']): Promise<SettingsRead | null> {
  const read = await readSettingsJson(path);
  if (read === null) return null;
  if ('error' in read) return { source: { kind, path, rules: 0, error: read.error }, allow: [], deny: [], dirs: [], defaultMode: null };
  const json = read.json;
  const permissions = isRecord(json) && isRecord(json.permissions) ? json.permissions : {};
  const allow = strings(permissions.allow);
  const deny = strings(permissions.deny);
  const dirs = strings(permissions.additionalDirectories);
  const defaultMode = typeof permissions.defaultMode === 'string' ? permissions.defaultMode : null;
  return { source: { kind, path, rules: allow.length + deny.length }, allow, deny, dirs, defaultMode };
}

function expandDir(dir: string, cwd: string, home: string): string {
  if (dir === '~' || dir.startsWith('~/')) return join(home, dir.slice(1));
  return isAbsolute(dir) ? resolve(dir) : resolve(cwd, dir);
}

export interface ClaudePermissionInput {
  /** The last `permissionMode` of the transcript, when it has one. */
  transcriptMode: string | null;
  transcriptPath: string;
  /** The session's working directory: its `.claude/settings*.json` are the project settings. */
  cwd: string | null;
  env?: NodeJS.ProcessEnv;
}

/**
 * The permission state of a Claude Code session: the transcript's `permissionMode` (else the
 * settings' `defaultMode`), the allow and deny rules of the user settings ($CLAUDE_CONFIG_DIR or
 * ~/.claude) and of the project (`.claude/settings.json`, `.claude/settings.local.json`), and the
 * directories it may touch. Files are only read; a broken one is named in `sources`, not fatal.
 */
export async function claudePermissionState(input: ClaudePermissionInput): Promise<PermissionState> {
  const env = input.env ?? process.env;
  const home = env.HOME ?? homedir();
  const reads: SettingsRead[] = [];
  const user = await readClaudeSettings(join(locateAgentDirs(env).claude, 'settings.json'), 'user-settings');
  if (user) reads.push(user);
  if (input.cwd) {
    for (const [file, kind] of [
      ['settings.json', 'project-settings'],
      ['settings.local.json', 'project-local-settings'],
    ] as const) {
      const read = await readClaudeSettings(join(input.cwd, '.claude', file), kind);
      if (read) reads.push(read);
    }
  }
  // The most specific file's defaultMode wins, as in Claude Code; the transcript's mode wins over all.
  const mode = input.transcriptMode ?? [...reads].reverse().find((r) => r.defaultMode !== null)?.defaultMode ?? 'default';
  const rules = new Set<string>();
  for (const r of reads) {
    for (const rule of r.allow) rules.add(`allow:${rule}`);
    for (const rule of r.deny) rules.add(`deny:${rule}`);
  }
  if (input.cwd) {
    rules.add(`root:${resolve(input.cwd)}`);
    for (const r of reads) for (const dir of r.dirs) rules.add(`root:${expandDir(dir, input.cwd, home)}`);
  }
  return {
    mode,
    rules: [...rules],
    sourceTool: 'claude',
    sourceMode: input.transcriptMode ?? mode,
    sources: [{ kind: 'transcript', path: input.transcriptPath, rules: 0 }, ...reads.map((r) => r.source)],
  };
}
