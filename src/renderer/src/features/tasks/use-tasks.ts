import { useCallback, useEffect, useRef } from 'react';
import type { BatonApi } from '../../api';
import { useReconnect } from '../../hooks/use-connection';
import { useRemote, type Remote } from '../../hooks/use-remote';
import type { TaskView } from './task-display';

export interface TasksState {
  tasks: Remote<TaskView[]>;
  /** When the shown list arrived (ms since the epoch): the lease countdown runs from here. */
  fetchedAt: number;
}

/** Every background task, re-fetched on `tasks:changed` and on reconnect. */
export function useTasks(api: BatonApi): TasksState {
  const load = useCallback(() => api.invoke('tasks:list', {}), [api]);
  const tasks = useRemote('tasks:list', load);
  const { reload } = tasks;
  useEffect(() => api.on('tasks:changed', () => reload()), [api, reload]);
  useReconnect(api, reload);

  // Stamped during render the first time a new answer is seen, so the countdown never starts late.
  const stamp = useRef<{ value: unknown; at: number }>({ value: undefined, at: Date.now() });
  if (stamp.current.value !== tasks.value) stamp.current = { value: tasks.value, at: Date.now() };
  return { tasks, fetchedAt: stamp.current.at };
}
