import { join } from 'node:path';
import { errnoOf } from './errors.js';
import { claudeProjectsDir, codexSessionsDir } from './locate.js';
import type { ImportReader } from './reader.js';
import type { AgentDirs, AgentSource } from './types.js';

export interface FoundFile {
  source: AgentSource;
  path: string;
  /** Codex `.jsonl.zst`: listed, but Node 20 has no zstd decoder to read it. */
  compressed: boolean;
}

export interface DiscoverResult {
  files: FoundFile[];
  /** Files and folders left out, by reason (e.g. Claude sub-agent logs, unreadable folders). */
  skipped: Record<string, number>;
}

const CODEX_ROLLOUT = /^rollout-.*\.jsonl(\.zst)?$/;
/** sessions/YYYY/MM/DD/ is three levels; one more tolerates a flat or nested variant. */
const CODEX_MAX_DEPTH = 4;

function bump(skipped: Record<string, number>, reason: string): void {
  skipped[reason] = (skipped[reason] ?? 0) + 1;
}

async function listDir(reader: ImportReader, dir: string, skipped: Record<string, number>) {
  try {
    return await reader.readdir(dir);
  } catch (error) {
    const code = errnoOf(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') bump(skipped, `unreadable folder (${code ?? 'error'})`);
    return [];
  }
}

/** Claude Code: projects/<encoded-cwd>/<session-id>.jsonl. agent-*.jsonl are sub-agent logs. */
async function discoverClaude(reader: ImportReader, dirs: AgentDirs, out: DiscoverResult): Promise<void> {
  const root = claudeProjectsDir(dirs);
  for (const project of await listDir(reader, root, out.skipped)) {
    if (!project.isDirectory) continue;
    const dir = join(root, project.name);
    for (const entry of await listDir(reader, dir, out.skipped)) {
      if (!entry.isFile || !entry.name.endsWith('.jsonl')) continue;
      if (entry.name.startsWith('agent-')) bump(out.skipped, 'claude sub-agent log');
      else out.files.push({ source: 'claude', path: join(dir, entry.name), compressed: false });
    }
  }
}

async function discoverCodex(reader: ImportReader, dir: string, depth: number, out: DiscoverResult): Promise<void> {
  for (const entry of await listDir(reader, dir, out.skipped)) {
    const path = join(dir, entry.name);
    if (entry.isFile && CODEX_ROLLOUT.test(entry.name)) out.files.push({ source: 'codex', path, compressed: entry.name.endsWith('.zst') });
    else if (entry.isDirectory && depth < CODEX_MAX_DEPTH) await discoverCodex(reader, path, depth + 1, out);
  }
}

/** Lists every session log of both tools (or of `only`). Missing folders are not an error. */
export async function discoverSessionFiles(reader: ImportReader, dirs: AgentDirs, only?: AgentSource): Promise<DiscoverResult> {
  const out: DiscoverResult = { files: [], skipped: {} };
  if (only !== 'codex') await discoverClaude(reader, dirs, out);
  if (only !== 'claude') await discoverCodex(reader, codexSessionsDir(dirs), 1, out);
  return out;
}
