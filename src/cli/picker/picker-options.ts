import type { ListGroup, ListItem } from '../../core/importers/candidate-list.js';
import type { IndexRow } from '../../shared/session.js';
import { terminalField } from '../terminal-text.js';
import { countText } from '../../shared/count-text.js';

/** Rows offered at once: a terminal shows a few dozen; typing narrows the rest. */
export const PICKER_MAX_ROWS = 300;
/**
 * Rows a host is asked for before the first frame: four screens of PICKER_VISIBLE_ROWS (16). The
 * frame shows the same rows as with PICKER_MAX_ROWS, and the whole listing replaces them right
 * after it (what was typed meanwhile is filtered again: resume-picker.ts filterAgain); the host's
 * 85 KB answer of 300 rows and its parse were ~5 ms of the first screen (bench/README.md, "Eleventh
 * sitting"). Without a host the first frame keeps PICKER_MAX_ROWS from the candidate index: its
 * whole listing can take seconds when the folders changed, and 64 rows measured no faster
 * ("Eighteenth sitting").
 */
export const PICKER_FIRST_PAGE_ROWS = 64;
/** Characters of a title shown on one line. */
export const PICKER_TITLE_CHARS = 72;

/** Characters of the directory shown before each title (its end: the project's name). */
export const PICKER_DIR_CHARS = 28;

export interface PickerOption {
  /** A row's id; `more:` for the closing line that says how many were left out (disabled). */
  value: string;
  label: string;
  hint?: string;
  disabled?: boolean;
}

/** One listed session, parsed once and kept with its lower-cased search text. */
interface PickerRow {
  row: IndexRow;
  haystack: string;
}

/**
 * The picker's rows grouped by directory, filtered by what was typed. Rows are parsed only when
 * first needed: the first screen (nothing typed) parses the first PICKER_MAX_ROWS, a search
 * parses each row once. Every text shown goes through terminalField: a title is a prompt someone
 * typed, and a log can hold escape sequences.
 */
export class PickerModel {
  #groups: readonly ListGroup[];
  #parsed: Array<Array<PickerRow | undefined>>;
  #total: number;
  readonly #byId = new Map<string, IndexRow>();
  /** The last options built, by query and cap: clack asks for them three times before its first frame and again at every keystroke. */
  #last: { query: string; max: number; options: PickerOption[] } | null = null;

  /** `total`: sessions in the whole listing, when `groups` hold only its first screen (the rest comes through replace()). */
  constructor(groups: readonly ListGroup[], total?: number) {
    this.#groups = groups;
    this.#parsed = groups.map((g) => new Array<PickerRow | undefined>(g.items.length));
    this.#total = total ?? 0;
  }

  /** The whole listing, arrived after the first screen was drawn: the next keystroke searches all of it. */
  replace(groups: readonly ListGroup[]): void {
    this.#groups = groups;
    this.#parsed = groups.map((g) => new Array<PickerRow | undefined>(g.items.length));
    this.#total = 0;
    this.#last = null;
  }

  /** The row behind an option's value (a session id), if it was offered. */
  rowOf(value: string): IndexRow | undefined {
    return this.#byId.get(value);
  }

  #rowAt(g: number, i: number): PickerRow {
    let r = this.#parsed[g]![i];
    if (!r) {
      const item: ListItem = this.#groups[g]!.items[i]!;
      const row = item.row();
      r = { row, haystack: `${row.title}\n${row.cwd}\n${row.id}\n${row.source}`.toLowerCase() };
      this.#parsed[g]![i] = r;
      this.#byId.set(row.id, row);
    }
    return r;
  }

  /**
   * Rows matching every word of `query` (case-insensitive), at most `max`, in the listing's order:
   * groups by directory, newest group first. Each row starts with its directory, so a group reads
   * as a block (clack draws disabled options struck through, so groups get no header rows).
   * Asked again for the same query and cap before replace(), the same options are returned (not
   * rebuilt: each build formats up to PICKER_MAX_ROWS labels).
   */
  options(query: string, max = PICKER_MAX_ROWS): PickerOption[] {
    if (this.#last?.query === query && this.#last.max === max) return this.#last.options;
    const options = this.#build(query, max);
    this.#last = { query, max, options };
    return options;
  }

  #build(query: string, max: number): PickerOption[] {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const out: PickerOption[] = [];
    let more = 0;
    for (let g = 0; g < this.#groups.length; g++) {
      const group = this.#groups[g]!;
      const dir = dirLabel(group.cwd);
      for (let i = 0; i < group.items.length; i++) {
        if (out.length >= max && words.length === 0) {
          more += group.items.length - i;
          break;
        }
        const r = this.#rowAt(g, i);
        if (!words.every((w) => r.haystack.includes(w))) continue;
        if (out.length >= max) more += 1;
        else out.push(optionOf(r.row, dir));
      }
    }
    // Only the first screen is here yet: the rest is counted from the listing's total.
    if (words.length === 0) more = Math.max(more, this.#total - out.length);
    if (more > 0) out.push({ value: 'more:', label: `… ${countText(more)} more: type to narrow`, disabled: true });
    return out;
  }
}

/** The end of a directory, padded to one width: `…/work/api-19`. */
export function dirLabel(cwd: string): string {
  const safe = terminalField(cwd);
  const cut = safe.length > PICKER_DIR_CHARS ? `…${safe.slice(safe.length - PICKER_DIR_CHARS + 1)}` : safe;
  return cut.padEnd(PICKER_DIR_CHARS);
}

function optionOf(row: IndexRow, dir: string): PickerOption {
  const title = row.title.length > PICKER_TITLE_CHARS ? `${row.title.slice(0, PICKER_TITLE_CHARS - 1)}…` : row.title;
  return { value: row.id, label: `${dir}  ${terminalField(title || '(untitled)')}`, hint: `${terminalField(row.source)} · ${terminalField(row.updatedAt.slice(0, 16).replace('T', ' '))} · ${row.messageCount} msgs` };
}
