import type { IndexRow } from '../../shared/session.js';
import { resumeCommandFor } from '../../core/importers/types.js';
import { terminalField } from '../terminal-text.js';
import type { Output } from '../output.js';

/** A Claude Code or Codex row's tool and its own session id; null for a Baton session (claimed through the store). */
export function toolOfRow(row: Pick<IndexRow, 'id'>): { tool: 'claude' | 'codex'; externalId: string } | null {
  const match = /^(claude|codex):(.+)$/.exec(row.id);
  return match ? { tool: match[1] as 'claude' | 'codex', externalId: match[2]! } : null;
}

/**
 * What the picker prints for a Claude Code or Codex row: that tool's own resume command and the
 * directory to run it in. Shared by the resume command and the hosted first screen's bundle
 * (picker-main.ts), which prints it without loading the store.
 */
export function printToolResume(row: Pick<IndexRow, 'id' | 'cwd'>, tool: { tool: 'claude' | 'codex'; externalId: string }, out: Output): void {
  const command = resumeCommandFor(tool.tool, tool.externalId);
  out.result('resume', { id: row.id, cwd: row.cwd, command }, () => [`Continue in: cd ${JSON.stringify(row.cwd)}`, `  ${terminalField(command)}`].join('\n'));
}
