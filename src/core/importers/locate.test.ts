import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeProjectsDir, codexSessionsDir, locateAgentDirs } from './locate.js';

describe('locateAgentDirs', () => {
  it.each([
    [{ HOME: '/h' }, '/h/.claude', '/h/.codex'],
    [{ HOME: '/h', CLAUDE_CONFIG_DIR: '/etc/claude' }, '/etc/claude', '/h/.codex'],
    [{ HOME: '/h', CODEX_HOME: '/srv/codex' }, '/h/.claude', '/srv/codex'],
    [{ HOME: '/h', CLAUDE_CONFIG_DIR: '~/cc', CODEX_HOME: '~' }, '/h/cc', '/h'],
  ])('%o → claude %s, codex %s', (env, claude, codex) => {
    expect(locateAgentDirs(env)).toEqual({ claude, codex });
  });

  it('resolves a relative override against the working directory, and names the session folders', () => {
    const dirs = locateAgentDirs({ HOME: '/h', CODEX_HOME: 'rel' });
    expect(dirs.codex).toBe(join(process.cwd(), 'rel'));
    expect(claudeProjectsDir(dirs)).toBe('/h/.claude/projects');
    expect(codexSessionsDir(dirs)).toBe(join(process.cwd(), 'rel', 'sessions'));
  });
});
