import { WorkspaceErrorCode } from '../../shared/workspace.js';

/** A workspace failure with a stable code, a message a person can act on, and the path involved. */
export class WorkspaceError extends Error {
  readonly code: WorkspaceErrorCode;
  readonly path: string | undefined;

  constructor(code: WorkspaceErrorCode, message: string, path?: string) {
    super(message);
    this.name = 'WorkspaceError';
    this.code = code;
    this.path = path;
  }
}

/** Throws GIT_FAILED with git's own words when a call we depend on failed. */
export function gitFailed(what: string, cwd: string, stderr: string): WorkspaceError {
  const detail = stderr.trim().split('\n').slice(0, 3).join(' ');
  return new WorkspaceError(WorkspaceErrorCode.GIT_FAILED, `git ${what} failed in ${cwd}: ${detail || 'no message'}`, cwd);
}
