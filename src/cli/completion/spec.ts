import type { Command, Option } from 'commander';

/**
 * What a shell needs to complete `baton`, read from the commander definitions themselves, so a
 * new command or option is completed without touching the generators.
 */
export interface CompletionCommand {
  /** "handoff", or "task register" for a subcommand. */
  path: string;
  description: string;
  options: { flags: string[]; description: string; takesValue: boolean; placeholder: string | null }[];
  subcommands: string[];
  /** What the first positional argument completes to. */
  positional: ValueSource | null;
}

/** Fixed words, session ids from Baton's index (asked at Tab time), or file names. */
export type ValueSource = { words: string[] } | { sessions: true } | { files: true };

export interface CompletionSpec {
  commands: CompletionCommand[];
  /** Option values: key "handoff --session". */
  optionValues: Record<string, ValueSource>;
}

/**
 * Values commander cannot know: which arguments are session ids, and the closed sets of words.
 * Keyed by command path and by argument or option name.
 */
const POSITIONAL_VALUES: Record<string, ValueSource> = {
  show: { sessions: true },
  resume: { sessions: true },
  archive: { sessions: true },
  unarchive: { sessions: true },
  export: { sessions: true },
  delete: { sessions: true },
  import: { files: true },
  install: { words: ['claude', 'codex'] },
  uninstall: { words: ['claude', 'codex'] },
  completion: { words: ['bash', 'zsh', 'fish'] },
};
const OPTION_VALUES: Record<string, ValueSource> = {
  'handoff --session': { sessions: true },
  'handoff --from': { words: ['claude', 'codex'] },
  'approve --hook': { words: ['claude'] },
};

function optionFlags(option: Option): string[] {
  return [option.long, option.short].filter((f): f is string => !!f);
}

function visible(option: Option): boolean {
  return !(option as Option & { hidden?: boolean }).hidden;
}

export function completionSpec(program: Command): CompletionSpec {
  const commands: CompletionCommand[] = [];
  const walk = (command: Command, prefix: string) => {
    for (const child of command.commands) {
      const path = prefix ? `${prefix} ${child.name()}` : child.name();
      const options = child.options.filter(visible).map((o) => ({
        flags: optionFlags(o),
        description: o.description,
        takesValue: o.required || o.optional,
        placeholder: /[<[]([^>\]]+)[>\]]/.exec(o.flags)?.[1] ?? null,
      }));
      options.push({ flags: ['--help', '-h'], description: 'show help for the command', takesValue: false, placeholder: null });
      const positional = POSITIONAL_VALUES[path] ?? null;
      commands.push({ path, description: child.description(), options, subcommands: child.commands.map((c) => c.name()), positional });
      walk(child, path);
    }
  };
  walk(program, '');
  const optionValues: Record<string, ValueSource> = { ...OPTION_VALUES };
  for (const command of commands) {
    for (const option of command.options) {
      const key = `${command.path} ${option.flags[0]}`;
      if (!option.takesValue || optionValues[key]) continue;
      // A session id, a file or directory (by the value's name in the flags: `--cwd <dir>`), or free text.
      if (option.flags[0] === '--session') optionValues[key] = { sessions: true };
      else if (/^(file|dir|path)$/.test(option.placeholder ?? '')) optionValues[key] = { files: true };
      else optionValues[key] = { words: [] };
    }
  }
  return { commands, optionValues };
}
