import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RiskContext, ToolCall } from '../risk.js';
import type { CorpusEntry } from './types.js';

/**
 * A real throw-away home and workspace for the corpus, so realpath and symlinks are real:
 *   @HOME@/.ssh/id_rsa, @HOME@/.bashrc
 *   @WS@ (a git repo: .git/hooks), src/, .claude/settings.json, .envrc
 *   @WS@/link-ssh -> @HOME@/.ssh, @WS@/link-out -> <base>/outside, @WS@/link-hooks -> .git/hooks,
 *   @WS@/link-new-key -> @HOME@/.ssh/authorized_keys (dangling)
 */
export interface CorpusWorkspace {
  home: string;
  ws: string;
  ctx: RiskContext;
  homeCtx: RiskContext;
  /** Replaces @WS@/@HOME@ in a call. */
  bind(entry: CorpusEntry): { call: ToolCall; ctx: RiskContext };
  dispose(): void;
}

export function makeCorpusWorkspace(): CorpusWorkspace {
  const base = mkdtempSync(join(tmpdir(), 'baton-policy-'));
  const home = join(base, 'home', 'u');
  const ws = join(home, 'proj');
  for (const d of [join(home, '.ssh'), join(ws, '.git', 'hooks'), join(ws, 'src', 'lib'), join(ws, '.claude'), join(ws, 'docs'), join(base, 'outside')]) mkdirSync(d, { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_rsa'), 'not a key\n');
  writeFileSync(join(home, '.bashrc'), '# rc\n');
  writeFileSync(join(ws, '.claude', 'settings.json'), '{}\n');
  writeFileSync(join(ws, '.envrc'), '');
  writeFileSync(join(ws, 'src', 'index.ts'), 'export {};\n');
  writeFileSync(join(ws, 'package.json'), '{}\n');
  symlinkSync(join(home, '.ssh'), join(ws, 'link-ssh'));
  symlinkSync(join(base, 'outside'), join(ws, 'link-out'));
  symlinkSync(join(ws, '.git', 'hooks'), join(ws, 'link-hooks'));
  // Dangling: the key file does not exist yet; writing through the link would create it.
  symlinkSync(join(home, '.ssh', 'authorized_keys'), join(ws, 'link-new-key'));
  symlinkSync('../../home-missing/x', join(ws, 'link-relative-dangling'));
  // The whole tree lives under the system temp dir: name a scratch dir of its own as "temp".
  const tempDirs = [join(base, 'scratch'), '/var/tmp'];
  const ctx: RiskContext = { cwd: ws, workspaceRoot: ws, home, tempDirs };
  const homeCtx: RiskContext = { cwd: home, workspaceRoot: home, home, tempDirs };
  const sub = (v: unknown): unknown => {
    if (typeof v === 'string') return v.replaceAll('@WS@', ws).replaceAll('@HOME@', home);
    if (Array.isArray(v)) return v.map(sub);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sub(x)]));
    return v;
  };
  return {
    home,
    ws,
    ctx,
    homeCtx,
    bind: (entry) => ({ call: { tool: entry.call.tool, input: sub(entry.call.input) as Record<string, unknown> }, ctx: entry.atHome ? homeCtx : ctx }),
    dispose: () => rmSync(base, { recursive: true, force: true }),
  };
}
