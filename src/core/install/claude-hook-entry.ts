import { parseJsonObject } from './json-text.js';
import { appendEntry, member, parseJsonTree, removeEntry, type JsonNode, type TextStyle } from './json-tree.js';

/** The approval hook's command, as README documents it; Baton recognises its own entries by it. */
export const BATON_HOOK_COMMAND = 'baton approve --hook claude';
/** The tools whose calls go to the desktop for approval (README "Approving risky actions"). */
export const BATON_HOOK_MATCHER = 'Bash|Edit|Write|MultiEdit|NotebookEdit|WebFetch';
/** Seconds: longer than `baton approve`'s own 600 s wait, so Claude Code never cuts it short. */
export const BATON_HOOK_TIMEOUT_S = 660;

export function batonHookGroup(): Record<string, unknown> {
  return { matcher: BATON_HOOK_MATCHER, hooks: [{ type: 'command', command: BATON_HOOK_COMMAND, timeout: BATON_HOOK_TIMEOUT_S }] };
}

export class SettingsError extends Error {
  readonly code = 'SETTINGS_MALFORMED';
  constructor(readonly path: string, reason: string) {
    super(`${path} was left untouched: ${reason}. Fix or move it, then run the command again.`);
  }
}

export interface SettingsEdit {
  /** The new text; equal to the input when nothing had to change. */
  text: string;
  changed: boolean;
  /** Containers ("hooks", "hooks.PreToolUse") that the edit created, so removal can drop them again. */
  created: string[];
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isBatonHook(hook: unknown): boolean {
  return isObject(hook) && hook.command === BATON_HOOK_COMMAND;
}

/** Checks the shape Baton edits (hooks.PreToolUse[].hooks[]); throws a SettingsError naming what is wrong. */
function checkSettings(path: string, text: string): Json {
  const parsed = parseJsonObject(text);
  if (!parsed.ok) throw new SettingsError(path, parsed.message);
  const hooks = parsed.value.hooks;
  if (hooks !== undefined && !isObject(hooks)) throw new SettingsError(path, '"hooks" is not an object');
  const pre = isObject(hooks) ? hooks.PreToolUse : undefined;
  if (pre !== undefined && !Array.isArray(pre)) throw new SettingsError(path, '"hooks.PreToolUse" is not an array');
  if (Array.isArray(pre) && pre.some((g) => !isObject(g) || (g.hooks !== undefined && !Array.isArray(g.hooks)))) {
    throw new SettingsError(path, 'an entry of "hooks.PreToolUse" is not a {matcher, hooks: [...]} object');
  }
  return parsed.value;
}

function styleOf(text: string): TextStyle {
  return {
    indent: /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ',
    eol: text.includes('\r\n') ? '\r\n' : '\n',
    oneLine: text.trim() !== '' && !text.trim().includes('\n'),
  };
}

function preToolUse(settings: Json): Json[] | undefined {
  return (settings.hooks as Json | undefined)?.PreToolUse as Json[] | undefined;
}

export function hasBatonHook(path: string, text: string): boolean {
  return !!preToolUse(checkSettings(path, text))?.some((g) => (g.hooks as unknown[] | undefined)?.some(isBatonHook));
}

/** Adds Baton's PreToolUse group unless a hook running the same command is already there. */
export function addBatonHook(path: string, text: string): SettingsEdit {
  if (hasBatonHook(path, text)) return { text, changed: false, created: [] };
  const settings = checkSettings(path, text);
  const style = styleOf(text);
  // A missing or empty file becomes `{}` plus a final newline, the way Claude Code writes it.
  const source = text.trim() === '' ? `{}${style.eol}` : text;
  const root = parseJsonTree(source);
  const group = batonHookGroup();
  if (!isObject(settings.hooks)) return { text: appendEntry(source, root, 0, style, { PreToolUse: [group] }, 'hooks'), changed: true, created: ['hooks', 'hooks.PreToolUse'] };
  const hooks = member(root, 'hooks')!;
  if (!Array.isArray(settings.hooks.PreToolUse)) return { text: appendEntry(source, hooks, 1, style, [group], 'PreToolUse'), changed: true, created: ['hooks.PreToolUse'] };
  return { text: appendEntry(source, member(hooks, 'PreToolUse')!, 2, style, group), changed: true, created: [] };
}

/**
 * Cuts every hook that runs Baton's command (its whole group when nothing else is in it), then the
 * containers named in `created` once they are empty — never a container the person had before.
 * Every other byte stays where it was.
 */
export function removeBatonHook(path: string, text: string, created: readonly string[]): SettingsEdit {
  if (!hasBatonHook(path, text)) return { text, changed: false, created: [] };
  let out = text;
  for (;;) {
    const settings = checkSettings(path, out);
    const groups = preToolUse(settings) ?? [];
    const g = groups.findIndex((group) => (group.hooks as unknown[] | undefined)?.some(isBatonHook));
    if (g < 0) break;
    const pre = member(member(parseJsonTree(out), 'hooks')!, 'PreToolUse')!;
    const inGroup = groups[g]!.hooks as unknown[];
    if (inGroup.every(isBatonHook)) out = removeEntry(out, pre, g);
    else out = removeEntry(out, member(pre.items[g]!, 'hooks')!, inGroup.findIndex(isBatonHook));
  }
  const root = parseJsonTree(out);
  const hooks = member(root, 'hooks');
  const pre = hooks && member(hooks, 'PreToolUse');
  if (hooks && pre?.kind === 'array' && pre.items.length === 0 && created.includes('hooks.PreToolUse')) {
    out = removeEntry(out, hooks, hooks.members.findIndex((m) => m.key === 'PreToolUse'));
  }
  const rootAfter = parseJsonTree(out);
  const hooksAfter: JsonNode | undefined = member(rootAfter, 'hooks');
  if (hooksAfter?.kind === 'object' && hooksAfter.members.length === 0 && created.includes('hooks')) {
    out = removeEntry(out, rootAfter, rootAfter.members.findIndex((m) => m.key === 'hooks'));
  }
  return { text: out, changed: true, created: [] };
}
