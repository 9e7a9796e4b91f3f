import { basename, isAbsolute, join, relative, sep } from 'node:path';
import { errnoOf } from './errors.js';
import { claudeProjectsDir, codexSessionsDir, isInside, realToolRoot } from './locate.js';
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
  /**
   * Every folder listed, with its mtime taken before the listing (-1: missing, 0: not to be
   * trusted: it holds links, or could not be read). A later scan whose folders
   * all keep their mtimes knows no file was added or removed (quick-scan.ts).
   */
  folders: Array<{ path: string; mtimeMs: number }>;
  /** Files and folders left out, by reason (e.g. Claude sub-agent logs, unreadable folders). */
  skipped: Record<string, number>;
}

const CODEX_ROLLOUT = /^rollout-.*\.jsonl(\.zst)?$/;
/** sessions/YYYY/MM/DD/ is three levels; one more tolerates a flat or nested variant. */
const CODEX_MAX_DEPTH = 4;

function bump(skipped: Record<string, number>, reason: string): void {
  skipped[reason] = (skipped[reason] ?? 0) + 1;
}

/**
 * `dir` + name: dir is already absolute and normalized (locateAgentDirs resolves it) and a
 * readdir name holds no separator, so path.join's normalization is pure cost at 20,000 files.
 */
function childOf(dir: string, name: string): string {
  return dir.endsWith(sep) ? dir + name : dir + sep + name;
}

/** The tool's folder with links resolved, or null: then no link is followed at all. */
type Boundary = string | null;

/**
 * The entries of `dir`, without links that lead out of the tool's folder: a link in
 * ~/.claude/projects to /etc or to another user's files must not become a "session" whose
 * content is shown as a title. Links that stay inside (a moved project folder) are kept.
 */
async function listDir(reader: ImportReader, dir: string, boundary: Boundary, skipped: Record<string, number>, folders: DiscoverResult['folders']) {
  let entries;
  const folder = { path: dir, mtimeMs: await folderMtime(reader, dir) };
  folders.push(folder);
  try {
    entries = await reader.readdir(dir);
  } catch (error) {
    const code = errnoOf(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      bump(skipped, `unreadable folder (${code ?? 'error'})`);
      folder.mtimeMs = 0; // its reason must be reported again, and only a full scan does
    }
    return [];
  }
  const kept = [];
  for (const entry of entries) {
    if (entry.isSymbolicLink) folder.mtimeMs = 0; // a link's target can change without its folder
    if (entry.isSymbolicLink && !(await linkStaysInside(reader, join(dir, entry.name), boundary))) {
      bump(skipped, 'symbolic link out of the tool folder');
      continue;
    }
    kept.push(entry);
  }
  return kept;
}

/**
 * The folder's mtime before it is listed (-1 when missing). Compared later only with other file
 * times (quick-scan.ts), never with this process's clock: the two can disagree.
 */
async function folderMtime(reader: ImportReader, dir: string): Promise<number> {
  try {
    return (await reader.stat(dir)).mtimeMs;
  } catch (error) {
    return errnoOf(error) === 'ENOENT' ? -1 : 0;
  }
}

async function linkStaysInside(reader: ImportReader, path: string, boundary: Boundary): Promise<boolean> {
  if (boundary === null || !reader.realpath) return false;
  const target = await reader.realpath(path).catch(() => null);
  return target !== null && isInside(target, boundary);
}

/** A tool's sessions folder, if it stays inside the tool's folder (it may itself be a link). */
async function startFolder(reader: ImportReader, folder: string, boundary: Boundary, skipped: Record<string, number>): Promise<boolean> {
  if (!reader.realpath || boundary === null) return true; // nothing to resolve with, or nothing there
  const real = await reader.realpath(folder).catch(() => null);
  if (real === null || isInside(real, boundary)) return true;
  bump(skipped, 'symbolic link out of the tool folder');
  return false;
}

/** Claude Code: projects/<encoded-cwd>/<session-id>.jsonl. agent-*.jsonl are sub-agent logs. */
async function discoverClaude(reader: ImportReader, dirs: AgentDirs, out: DiscoverResult): Promise<void> {
  const root = claudeProjectsDir(dirs);
  const boundary = await realToolRoot(reader, dirs.claude);
  if (!(await startFolder(reader, root, boundary, out.skipped))) return void out.folders.push({ path: root, mtimeMs: 0 });
  for (const project of await listDir(reader, root, boundary, out.skipped, out.folders)) {
    if (!project.isDirectory) continue;
    const dir = childOf(root, project.name);
    for (const entry of await listDir(reader, dir, boundary, out.skipped, out.folders)) {
      if (!entry.isFile || !entry.name.endsWith('.jsonl')) continue;
      if (entry.name.startsWith('agent-')) bump(out.skipped, 'claude sub-agent log');
      else out.files.push({ source: 'claude', path: childOf(dir, entry.name), compressed: false });
    }
  }
}

async function discoverCodex(reader: ImportReader, dir: string, boundary: Boundary, depth: number, out: DiscoverResult): Promise<void> {
  for (const entry of await listDir(reader, dir, boundary, out.skipped, out.folders)) {
    const path = childOf(dir, entry.name);
    if (entry.isFile && CODEX_ROLLOUT.test(entry.name)) out.files.push({ source: 'codex', path, compressed: entry.name.endsWith('.zst') });
    else if (entry.isDirectory && depth < CODEX_MAX_DEPTH) await discoverCodex(reader, path, boundary, depth + 1, out);
  }
}

/** Lists every session log of both tools (or of `only`). Missing folders are not an error. */
export async function discoverSessionFiles(reader: ImportReader, dirs: AgentDirs, only?: AgentSource): Promise<DiscoverResult> {
  const out: DiscoverResult = { files: [], skipped: {}, folders: [] };
  if (only !== 'codex') await discoverClaude(reader, dirs, out);
  if (only !== 'claude') {
    const boundary = await realToolRoot(reader, dirs.codex);
    if (await startFolder(reader, codexSessionsDir(dirs), boundary, out.skipped)) await discoverCodex(reader, codexSessionsDir(dirs), boundary, 1, out);
    else out.folders.push({ path: codexSessionsDir(dirs), mtimeMs: 0 });
  }
  return out;
}

/**
 * Whether a path a watcher reported is a session log discovery would list (same rules, no
 * reads): Claude projects/<dir>/<id>.jsonl (not agent-*), Codex sessions/…/rollout-*.jsonl(.zst).
 */
export function sessionFileOf(dirs: AgentDirs, path: string): FoundFile | null {
  const name = basename(path);
  const claudeRel = relative(claudeProjectsDir(dirs), path);
  if (!claudeRel.startsWith('..') && !isAbsolute(claudeRel) && claudeRel.split(sep).length === 2) {
    return name.endsWith('.jsonl') && !name.startsWith('agent-') ? { source: 'claude', path, compressed: false } : null;
  }
  const codexRel = relative(codexSessionsDir(dirs), path);
  if (!codexRel.startsWith('..') && !isAbsolute(codexRel) && codexRel.split(sep).length <= CODEX_MAX_DEPTH) {
    return CODEX_ROLLOUT.test(name) ? { source: 'codex', path, compressed: name.endsWith('.zst') } : null;
  }
  return null;
}
