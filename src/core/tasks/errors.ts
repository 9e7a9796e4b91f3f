import type { TaskErrorCode } from '../../shared/tasks.js';

/** A typed task failure: a stable code, a sentence a person can act on, and the task id or path. */
export class TaskError extends Error {
  override readonly name = 'TaskError';
  constructor(
    readonly code: TaskErrorCode,
    message: string,
    readonly target: string,
    /** Extra fields for the socket answer (current state, revision, stop). */
    readonly details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isTaskError(value: unknown, code?: TaskErrorCode): value is TaskError {
  return value instanceof TaskError && (code === undefined || value.code === code);
}
