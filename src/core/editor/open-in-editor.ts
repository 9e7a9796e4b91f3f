import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { delimiter, isAbsolute, join, relative, resolve } from 'node:path';

/** Why a file could not be opened in an editor, with a code the UI shows. */
export class EditorError extends Error {
  constructor(
    readonly code: 'NO_EDITOR' | 'BAD_REQUEST' | 'EDITOR_FAILED',
    message: string,
  ) {
    super(message);
    this.name = 'EditorError';
  }
}

export interface EditorCommand {
  command: string;
  args: string[];
}

async function onPath(name: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  for (const dir of (env.PATH ?? '').split(delimiter).filter((d) => d.length > 0)) {
    const candidate = join(dir, name);
    if (await access(candidate, constants.X_OK).then(() => true, () => false)) return candidate;
  }
  return null;
}

/**
 * The command that opens `path` at `line` for a person at this desktop: VS Code's `code -g
 * path:line` when it is installed (it opens a window even from a GUI app), else $VISUAL or $EDITOR
 * (split into words, no shell) with the path. NO_EDITOR when there is none.
 */
export async function editorCommandFor(path: string, line: number, env: NodeJS.ProcessEnv = process.env): Promise<EditorCommand> {
  const code = await onPath('code', env);
  if (code !== null) return { command: code, args: ['-g', `${path}:${Math.max(1, line)}`] };
  const configured = (env.VISUAL ?? env.EDITOR ?? '').trim();
  if (configured.length > 0) {
    const [command, ...args] = configured.split(/\s+/);
    return { command: command!, args: [...args, path] };
  }
  throw new EditorError('NO_EDITOR', 'No editor found: install VS Code (the `code` command) or set $VISUAL or $EDITOR, then try again.');
}

/** `relativePath` inside `root` as an absolute path; BAD_REQUEST for anything outside it. */
export function pathInside(root: string, relativePath: string): string {
  const absolute = resolve(root, relativePath);
  const rel = relative(root, absolute);
  if (rel.startsWith('..') || isAbsolute(rel)) throw new EditorError('BAD_REQUEST', `${relativePath} is outside the session's directory ${root}.`);
  return absolute;
}

/** Starts the editor detached (it outlives the request); resolves once it started, rejects when it cannot. */
export async function openInEditor(path: string, line: number, env: NodeJS.ProcessEnv = process.env): Promise<EditorCommand> {
  const command = await editorCommandFor(path, line, env);
  await new Promise<void>((resolveStarted, reject) => {
    const child = spawn(command.command, command.args, { detached: true, stdio: 'ignore', env });
    child.once('error', (error) => reject(new EditorError('EDITOR_FAILED', `${command.command} could not start: ${error.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolveStarted();
    });
  });
  return command;
}
