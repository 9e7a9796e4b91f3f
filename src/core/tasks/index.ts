export { createTaskService, DEFAULT_SWEEP_INTERVAL_MS } from './task-service.js';
export type { HandoffTask, TaskEvent, TaskService, TaskServiceOptions, TerminateOptions } from './task-service.js';
export { TaskError, isTaskError } from './errors.js';
export { stateAt } from './lease.js';
export { processStartTime, parseProcStat, canCheckStartTime } from './process-start-time.js';
export { toManifestTasks } from './manifest-tasks.js';
