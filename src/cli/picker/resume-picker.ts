import type { ListGroup } from '../../core/importers/candidate-list.js';
import type { IndexRow } from '../../shared/session.js';
import { PickerModel } from './picker-options.js';
import { markPhase } from '../../core/perf/phase-trace.js';
import { countText } from '../../shared/count-text.js';

/** Rows visible at once (clack's autocomplete scrolls through the rest). */
export const PICKER_VISIBLE_ROWS = 16;

/** What the picker reaches of clack's live autocomplete prompt (@clack/core's Prompt and AutocompletePrompt). */
interface LivePrompt {
  state: string;
  userInput: string;
  emit(event: 'userInput', typed: string): void;
  render(): void;
}

/**
 * Has clack filter again what is typed, against the model's rows as they are now, and draw the
 * result. clack filters only when the typed text changes (AutocompletePrompt's `userInput`
 * handler); the whole listing lands between keystrokes, and a search typed before it would show
 * the first screen's matches (or "No matches found") until the next key. A text clack has not
 * seen makes it ask the model again (its options getter reads `userInput`, which is unchanged);
 * the real text then puts its record of what was typed back. The focused row stays focused when
 * it is still offered.
 */
function filterAgain(prompt: LivePrompt): void {
  if (prompt.state !== 'initial' && prompt.state !== 'active') return; // chosen or cancelled: nothing to draw
  const typed = prompt.userInput;
  prompt.emit('userInput', `${typed}\u0000`);
  prompt.emit('userInput', typed);
  prompt.render();
}

let prompts: Promise<typeof import('@clack/prompts')> | undefined;

/**
 * @clack/prompts, loaded once and only for the picker (other commands never pay for it). The
 * picker starts this with its listing: clack's modules then evaluate while the listing waits on
 * the host's answers (after the socket's connect: resume.ts), the store's files and the index
 * (bench/README.md, eleventh sitting, second round; fourteenth sitting).
 */
export function loadPrompts(): Promise<typeof import('@clack/prompts')> {
  if (!prompts) markPhase('prompts-loading');
  return (prompts ??= import('@clack/prompts'));
}

/**
 * `baton resume` with no id, on a terminal: the listing grouped by directory with type-to-filter
 * (@clack/prompts' autocomplete). Resolves
 * to the chosen row, or null when the person cancelled (Escape, Ctrl-C) or there is nothing.
 */
export async function pickSession(
  groups: readonly ListGroup[],
  total: number,
  io: { input?: NodeJS.ReadableStream; output?: NodeJS.WritableStream; rest?: () => Promise<readonly ListGroup[] | null> } = {},
): Promise<IndexRow | null> {
  const model = new PickerModel(groups, total);
  let live: LivePrompt | undefined;
  // The whole first screen's options: clack asks for these same ones (the model keeps them).
  const first = model.options('').find((o) => !o.disabled);
  if (!first) return null;
  markPhase('picker-model');
  const { autocomplete, isCancel } = await loadPrompts();
  markPhase('picker-loaded');
  const prompt = autocomplete<string>({
    message: `Resume which session? ${countText(total)} in all; type to filter, ↑↓ to move, Enter to pick`,
    // A getter: clack calls it for every keystroke with the prompt as `this`; the model filters.
    options(this: { userInput: string }) {
      // clack's types keep render() private; it is the method its own keypress and resize handlers call.
      live = this as unknown as LivePrompt;
      return model.options(this.userInput ?? '');
    },
    // The model filtered already; clack's own filter would match the whole query against a label.
    filter: () => true,
    initialValue: first.value,
    maxItems: PICKER_VISIBLE_ROWS,
    placeholder: 'title, directory or id',
    ...(io.input ? { input: io.input as NodeJS.ReadStream } : {}),
    ...(io.output ? { output: io.output as NodeJS.WriteStream } : {}),
  });
  markPhase('picker-drawn');
  // The first screen is drawn: now fetch the whole listing for searching (a failure leaves the
  // first screen's rows), and filter what was typed meanwhile against it.
  if (io.rest) {
    io.rest().then(
      (all) => {
        if (!all) return;
        model.replace(all);
        if (live) filterAgain(live);
      },
      () => undefined,
    );
  }
  const chosen = await prompt;
  if (isCancel(chosen) || typeof chosen !== 'string') return null;
  return model.rowOf(chosen) ?? null;
}
