import { mkdir, readFile, realpath, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../fs/index.js';
import { addBatonHook, hasBatonHook, removeBatonHook } from './claude-hook-entry.js';
import { claudeHandoffCommand, codexHandoffPrompt } from './command-files.js';
import { installStatePath, readInstallState, removeInstallState, sha256, writeInstallState, type InstallState } from './install-state.js';
import { unifiedDiff } from './line-diff.js';
import type { InstallTarget } from './targets.js';

/** One file that install or uninstall would write (after: the new text) or delete (after: null). */
export interface FileChange {
  role: 'command' | 'settings';
  path: string;
  before: string | null;
  after: string | null;
}

export interface InstallPlan {
  target: InstallTarget;
  changes: FileChange[];
  /** Things the person should know that change nothing (a file left in place, and why). */
  notes: string[];
  /** Settings containers the hook edit creates (kept in the install state). */
  created: string[];
  /** Uninstall only: the record of the install being undone. */
  state: InstallState | null;
}

export class InstallConflictError extends Error {
  readonly code = 'INSTALL_CONFLICT';
}

/** Every file Baton writes starts with this; a file without it is the person's own. */
const BATON_MARKER = 'Installed by `baton install`';

async function readText(path: string): Promise<string | null> {
  return readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
}

export function commandText(target: InstallTarget): string {
  return target.agent === 'claude' ? claudeHandoffCommand() : codexHandoffPrompt();
}

export async function planInstall(target: InstallTarget): Promise<InstallPlan> {
  const changes: FileChange[] = [];
  const wanted = commandText(target);
  const current = await readText(target.commandFile);
  if (current !== null && current !== wanted && !current.includes(BATON_MARKER)) {
    throw new InstallConflictError(`${target.commandFile} already exists and was not written by Baton; move it away (or rename your command) and run baton install ${target.agent} again`);
  }
  if (current !== wanted) changes.push({ role: 'command', path: target.commandFile, before: current, after: wanted });
  let created: string[] = [];
  if (target.settingsFile) {
    const before = await readText(target.settingsFile);
    const edit = addBatonHook(target.settingsFile, before ?? '');
    if (edit.changed) changes.push({ role: 'settings', path: target.settingsFile, before, after: edit.text });
    created = edit.created;
  }
  return { target, changes, notes: [], created, state: null };
}

export async function planUninstall(target: InstallTarget, dataDir: string): Promise<InstallPlan> {
  const state = await readInstallState(installStatePath(dataDir, target));
  const changes: FileChange[] = [];
  const notes: string[] = [];
  const current = await readText(target.commandFile);
  if (current !== null) {
    const ours = current === commandText(target) || (state?.commandSha256 != null && sha256(current) === state.commandSha256);
    if (ours) changes.push({ role: 'command', path: target.commandFile, before: current, after: null });
    else if (current.includes(BATON_MARKER)) notes.push(`${target.commandFile} was edited since Baton installed it, so it was left in place`);
  }
  const settingsFile = target.settingsFile;
  // A hook that was already there before install is the person's: install added nothing to undo.
  const installAddedHook = !state || state.settingsWrittenSha256 !== null;
  if (settingsFile && installAddedHook) {
    const before = await readText(settingsFile);
    if (before !== null && hasBatonHook(settingsFile, before)) {
      const untouched = state && state.settingsWrittenSha256 === sha256(before);
      const original = untouched ? (state.backupFile ? await readText(state.backupFile) : null) : undefined;
      if (untouched && (original !== null || !state.settingsExisted)) {
        changes.push({ role: 'settings', path: settingsFile, before, after: state.settingsExisted ? original! : null });
      } else {
        changes.push({ role: 'settings', path: settingsFile, before, after: removeBatonHook(settingsFile, before, state?.created ?? []).text });
      }
    }
  }
  return { target, changes, notes, created: [], state };
}

/** The diff `--dry-run` prints: one unified diff per file. */
export function planDiff(plan: InstallPlan): string {
  return plan.changes.map((c) => unifiedDiff(c.path, c.before, c.after)).join('');
}

/** `settings.json.baton-backup-20261130T120000Z`: sorts by time, and says who made it. */
export function backupPathFor(file: string, now: Date): string {
  return `${file}.baton-backup-${now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}`;
}

/** Writes through a symlinked settings file (dotfile repos) instead of replacing the link. */
async function writeKeepingMode(path: string, text: string): Promise<void> {
  const real = await realpath(path).catch(() => path);
  const mode = await stat(real).then((s) => s.mode & 0o777, () => 0o600);
  await mkdir(dirname(real), { recursive: true });
  await writeFileAtomic(real, text, { mode });
}

export interface AppliedInstall {
  written: string[];
  backup: string | null;
}

export async function applyInstall(plan: InstallPlan, dataDir: string, now = new Date()): Promise<AppliedInstall> {
  const statePath = installStatePath(dataDir, plan.target);
  const previous = await readInstallState(statePath);
  const state: InstallState = previous ?? {
    version: 1,
    agent: plan.target.agent,
    commandFile: plan.target.commandFile,
    commandSha256: null,
    settingsFile: plan.target.settingsFile,
    settingsWrittenSha256: null,
    backupFile: null,
    settingsExisted: false,
    created: [],
  };
  let backup: string | null = null;
  const written: string[] = [];
  for (const change of plan.changes) {
    if (change.after === null) continue;
    if (change.role === 'settings' && change.before !== null) {
      backup = backupPathFor(change.path, now);
      await writeKeepingMode(backup, change.before);
    }
    await writeKeepingMode(change.path, change.after);
    written.push(change.path);
    if (change.role === 'command') state.commandSha256 = sha256(change.after);
    else Object.assign(state, { settingsWrittenSha256: sha256(change.after), backupFile: backup, settingsExisted: change.before !== null, created: plan.created });
  }
  if (written.length > 0) await writeInstallState(statePath, state);
  return { written, backup };
}

export async function applyUninstall(plan: InstallPlan, dataDir: string): Promise<{ written: string[]; removed: string[] }> {
  const written: string[] = [];
  const removed: string[] = [];
  for (const change of plan.changes) {
    if (change.after === null) {
      await rm(change.path, { force: true });
      removed.push(change.path);
    } else {
      await writeKeepingMode(change.path, change.after);
      written.push(change.path);
    }
  }
  await removeInstallState(installStatePath(dataDir, plan.target));
  return { written, removed };
}
