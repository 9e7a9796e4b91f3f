import { lstat, readFile, readlink } from 'node:fs/promises';
import { WorkspaceErrorCode, type DiffFileList, type FileDiff, type FileSide, type WorkspaceSnapshot } from '../../shared/workspace.js';
import { sha256Hex } from '../hash.js';
import { WorkspaceError } from './errors.js';
import { readBlobs } from './git-objects.js';
import { handedOffContents } from './handed-off.js';
import { resolveInside } from './safe-path.js';

/** Files larger than this are described, not inlined: the viewer opens them on demand (`full`). */
export const FILE_INLINE_MAX_BYTES = 2 * 1024 * 1024;
/** Bytes git itself inspects for a NUL to call a file binary. */
const BINARY_SNIFF_BYTES = 8000;

/** The changed-file list for the viewer, with per-status counts and line totals. Reads nothing from disk. */
export function listDiffFiles(snapshot: WorkspaceSnapshot): DiffFileList {
  const files = [...(snapshot.git?.files ?? [])].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const counts: Record<string, number> = {};
  let additions = 0;
  let deletions = 0;
  for (const file of files) {
    counts[file.status] = (counts[file.status] ?? 0) + 1;
    additions += file.additions ?? 0;
    deletions += file.deletions ?? 0;
  }
  return { files, counts, total: files.length, additions, deletions };
}

export interface FileDiffRequest {
  /** The handed-off snapshot. */
  snapshot: WorkspaceSnapshot;
  /** The stored patch (null when it was too large to store). */
  patch: Buffer | null;
  path: string;
  /** Where HEAD blobs are read (default: the handed-off root). */
  repoRoot?: string;
  /** Left side: the HEAD content (default) or the target's disk (partial rehydration). */
  against?: 'head' | 'disk';
  /** The working tree read for `against: 'disk'` (default: repoRoot). */
  diskRoot?: string;
  /** Inline even past FILE_INLINE_MAX_BYTES (the viewer asked to open it). */
  full?: boolean;
}

/** Both sides of one changed file for the diff viewer: binary and oversized files are described, not inlined. */
export async function fileDiff(request: FileDiffRequest): Promise<FileDiff> {
  const git = request.snapshot.git;
  const changed = git?.files.find((f) => f.path === request.path);
  // Drift (against the disk) can name a file the handoff did not change: its handed-off content is
  // then the handed-off HEAD's blob.
  if (git && !changed && request.against === 'disk' && git.head !== null) return cleanFileAgainstDisk(request, git.root, git.head);
  if (!git || !changed) throw new WorkspaceError(WorkspaceErrorCode.NOT_IN_HANDOFF, `${request.path} is not among the handed-off changes.`, request.path);
  const file = changed;
  const repoRoot = request.repoRoot ?? git.root;
  const against = request.against ?? 'head';
  const side = (bytes: Buffer | null) => describe(bytes, file.binary, request.full === true);

  let original: FileSide;
  if (against === 'disk') original = side(await readDisk(request.diskRoot ?? repoRoot, file.path));
  else if (file.status === 'added' || file.status === 'untracked' || git.head === null) original = { kind: 'absent' };
  else {
    const source = file.oldPath ?? file.path;
    original = side((await readBlobs(repoRoot, git.head, [source])).get(source) ?? null);
  }

  let modified: FileSide;
  if (file.status === 'deleted') modified = { kind: 'absent' };
  else if (request.patch) modified = side((await handedOffContents(repoRoot, git.head, request.patch, [file])).get(file.path) ?? null);
  else {
    // No stored patch: the source's disk still serves when it holds exactly the handed-off bytes.
    const disk = await readDisk(git.root, file.path).catch(() => null);
    modified = disk && sha256Hex(disk) === file.sha256 ? side(disk) : { kind: 'unavailable', reason: 'The patch was too large to store and the file has changed since the handoff.' };
  }
  const diff: FileDiff = { path: file.path, status: file.status, binary: file.binary, against, original, modified };
  if (file.oldPath !== undefined) diff.oldPath = file.oldPath;
  return diff;
}

/** A file the handoff left as it was at HEAD, against what the disk holds now. */
async function cleanFileAgainstDisk(request: FileDiffRequest, handedOffRoot: string, head: string): Promise<FileDiff> {
  const repoRoot = request.repoRoot ?? handedOffRoot;
  // A repository-relative path only: nothing above the root or absolute is read from the disk.
  const segments = request.path.split('/');
  if (request.path.startsWith('/') || segments.includes('..') || segments.includes('.git'))
    throw new WorkspaceError(WorkspaceErrorCode.NOT_IN_HANDOFF, `${request.path} is not a path inside the handed-off repository.`, request.path);
  const expected = (await readBlobs(repoRoot, head, [request.path])).get(request.path) ?? null;
  const disk = await readDisk(request.diskRoot ?? repoRoot, request.path);
  const full = request.full === true;
  // A file made on this disk since (an agent run wrote it): the handed-off side has no file.
  if (expected === null && disk !== null) return { path: request.path, status: 'untracked', binary: false, against: 'disk', original: describe(disk, false, full), modified: { kind: 'absent' } };
  if (expected === null) throw new WorkspaceError(WorkspaceErrorCode.NOT_IN_HANDOFF, `${request.path} was neither changed by the handoff nor in its HEAD.`, request.path);
  return { path: request.path, status: 'modified', binary: false, against: 'disk', original: describe(disk, false, full), modified: describe(expected, false, full) };
}

/** Images up to this size travel to the viewer for a preview (as data: URLs, which the CSP allows for img). */
export const IMAGE_PREVIEW_MAX_BYTES = 2 * 1024 * 1024;

/** The image type by magic bytes (never by file name: an SVG or HTML renamed .png is not previewed). */
export function imageMimeOf(bytes: Buffer): 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const head = bytes.subarray(0, 12).toString('latin1');
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'image/gif';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'image/webp';
  return null;
}

function describe(bytes: Buffer | null, binary: boolean, full: boolean): FileSide {
  if (bytes === null) return { kind: 'absent' };
  const sha256 = sha256Hex(bytes);
  if (binary || bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
    const mime = bytes.length <= IMAGE_PREVIEW_MAX_BYTES ? imageMimeOf(bytes) : null;
    return mime === null ? { kind: 'binary', size: bytes.length, sha256 } : { kind: 'binary', size: bytes.length, sha256, image: { mime, base64: bytes.toString('base64') } };
  }
  if (bytes.length > FILE_INLINE_MAX_BYTES && !full) return { kind: 'too-large', size: bytes.length, sha256 };
  return { kind: 'text', text: bytes.toString('utf8'), size: bytes.length, sha256 };
}

async function readDisk(root: string, path: string): Promise<Buffer | null> {
  const abs = await resolveInside(root, path);
  try {
    const stats = await lstat(abs);
    if (stats.isSymbolicLink()) return Buffer.from(await readlink(abs, { encoding: 'buffer' }));
    return stats.isFile() ? await readFile(abs) : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

