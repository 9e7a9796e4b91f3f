import type { RunEvent } from '../../../../shared/agent-run';

/**
 * What the run stream shows, folded from the run's events in arrival order: text as it comes, a
 * tool card per call that its result updates in place (running → done / failed), errors, and the
 * end with its exit code and last stderr lines.
 */
export type RunItem =
  | { kind: 'text'; id: string; text: string }
  | { kind: 'tool'; id: string; name: string; summary: string; status: 'running' | 'done' | 'failed'; output: string | null }
  | { kind: 'error'; id: string; message: string }
  /** One item, updated in place: every file changed so far in the run. */
  | { kind: 'files'; id: 'files'; paths: string[]; more: number }
  | { kind: 'finished'; id: string; state: 'completed' | 'failed' | 'stopped'; exitCode: number | null; signal: string | null; stderrTail: string[] };

/** Longest one-line summary of a tool call's input. */
export const TOOL_SUMMARY_MAX_CHARS = 200;

export function toolSummary(input: unknown): string {
  if (input !== null && typeof input === 'object') {
    const o = input as Record<string, unknown>;
    const main = o.command ?? o.file_path ?? o.path ?? o.url ?? o.pattern;
    if (typeof main === 'string') return main.length > TOOL_SUMMARY_MAX_CHARS ? `${main.slice(0, TOOL_SUMMARY_MAX_CHARS - 1)}…` : main;
  }
  const text = JSON.stringify(input) ?? '';
  return text.length > TOOL_SUMMARY_MAX_CHARS ? `${text.slice(0, TOOL_SUMMARY_MAX_CHARS - 1)}…` : text;
}

export function foldRunEvents(events: readonly RunEvent[]): RunItem[] {
  const items: RunItem[] = [];
  const tools = new Map<string, number>();
  let filesAt = -1;
  events.forEach((event, index) => {
    switch (event.kind) {
      case 'text':
        items.push({ kind: 'text', id: event.id, text: event.text });
        break;
      case 'tool-call':
        tools.set(event.id, items.length);
        items.push({ kind: 'tool', id: event.id, name: event.name, summary: toolSummary(event.input), status: 'running', output: null });
        break;
      case 'tool-result': {
        const at = tools.get(event.id);
        const card = at === undefined ? undefined : items[at];
        if (card?.kind === 'tool') items[at!] = { ...card, status: event.isError ? 'failed' : 'done', output: event.output };
        else items.push({ kind: 'tool', id: event.id, name: 'tool', summary: '', status: event.isError ? 'failed' : 'done', output: event.output });
        break;
      }
      case 'error':
        items.push({ kind: 'error', id: `error-${index}`, message: event.message });
        break;
      case 'files': {
        const item: RunItem = { kind: 'files', id: 'files', paths: event.paths, more: event.more };
        if (filesAt < 0) {
          filesAt = items.length;
          items.push(item);
        } else items[filesAt] = item;
        break;
      }
      case 'finished':
        // A call still "running" when the run ended never finished.
        for (const [, at] of tools) {
          const card = items[at];
          if (card?.kind === 'tool' && card.status === 'running') items[at] = { ...card, status: 'failed', output: card.output ?? 'The run ended before this call finished.' };
        }
        items.push({ kind: 'finished', id: `finished-${index}`, state: event.state, exitCode: event.exitCode, signal: event.signal, stderrTail: event.stderrTail });
        break;
      case 'started':
        break;
    }
  });
  return items;
}
