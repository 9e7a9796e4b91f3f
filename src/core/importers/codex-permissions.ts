import { resolve } from 'node:path';
import type { PermissionState } from '../../shared/session-fields/permission.js';
import { codexPermissionMode } from './codex-format.js';
import type { LogLine } from './lines.js';
import { isRecord, str } from './text.js';

const MAX_WRITABLE_ROOTS = 1_000;

/**
 * Baton's mode for a Codex approval policy and sandbox: `never` with full access skips every
 * question (bypassPermissions); a writable workspace lets edits through (acceptEdits); a
 * read-only sandbox that never asks can do nothing beyond reading (plan); the rest asks (default).
 */
export function batonModeForCodex(approval: string | undefined, sandbox: string | undefined): string {
  if (approval === 'never' && sandbox === 'danger-full-access') return 'bypassPermissions';
  if (approval === 'never' && sandbox === 'read-only') return 'plan';
  if (approval === 'untrusted') return 'default';
  if (sandbox === 'workspace-write' || sandbox === 'danger-full-access') return 'acceptEdits';
  return 'default';
}

/** Keeps the last `turn_context` of a rollout: its approval policy, sandbox and writable roots. */
export class CodexPermissionScanner {
  private last: Record<string, unknown> | null = null;
  private cwd: string | undefined;
  private line = 0;

  feed(line: LogLine, lineNo: number): void {
    const v = line.value;
    if (line.broken || !isRecord(v) || v.type !== 'turn_context' || !isRecord(v.payload)) return;
    this.last = v.payload;
    this.cwd = str(v.payload.cwd) ?? this.cwd;
    this.line = lineNo;
  }

  /** null when the rollout has no turn_context (nothing to carry). */
  result(transcriptPath: string): PermissionState | null {
    const p = this.last;
    if (!p) return null;
    const approval = str(p.approval_policy);
    const sp = p.sandbox_policy;
    const sandbox = typeof sp === 'string' ? sp : isRecord(sp) ? (str(sp.type) ?? str(sp.mode)) : undefined;
    const roots = isRecord(sp) && Array.isArray(sp.writable_roots) ? sp.writable_roots.filter((r): r is string => typeof r === 'string' && r.startsWith('/')).slice(0, MAX_WRITABLE_ROOTS) : [];
    const rules = [...new Set([...(this.cwd ? [`root:${resolve(this.cwd)}`] : []), ...roots.map((r) => `root:${resolve(r)}`)])];
    return {
      mode: batonModeForCodex(approval, sandbox),
      rules,
      sourceTool: 'codex',
      sourceMode: codexPermissionMode(p) ?? 'unknown/unknown',
      ...(isRecord(sp) && typeof sp.network_access === 'boolean' ? { networkAccess: sp.network_access } : {}),
      sources: [{ kind: 'turn-context', path: `${transcriptPath}:${this.line}`, rules: rules.length }],
    };
  }
}
