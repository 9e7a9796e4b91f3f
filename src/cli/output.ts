import { terminalLines } from './terminal-text.js';

/** Version of every `--json` object the CLI prints; bumped on an incompatible change. */
export const CLI_JSON_VERSION = 1;

/**
 * Every human-readable line the CLI prints goes through terminalLines (./terminal-text.ts): no
 * session text can drive the terminal. `--json` is written exactly as JSON.stringify makes it.
 */
export interface Output {
  json: boolean;
  /** One versioned JSON object on stdout, or lines for a person. */
  result(command: string, value: Record<string, unknown>, human: () => string): void;
  /** A problem: JSON on stdout in --json mode (so callers parse one stream), else a line on stderr. */
  problem(command: string, code: string, message: string, extra?: Record<string, unknown>): void;
}

export function createOutput(json: boolean): Output {
  return {
    json,
    result(command, value, human) {
      if (json) process.stdout.write(`${JSON.stringify({ version: CLI_JSON_VERSION, command, ok: true, ...value })}\n`);
      else process.stdout.write(`${terminalLines(human())}\n`);
    },
    problem(command, code, message, extra = {}) {
      if (json) process.stdout.write(`${JSON.stringify({ version: CLI_JSON_VERSION, command, ok: false, code, message, ...extra })}\n`);
      else process.stderr.write(`baton ${command}: ${terminalLines(message)}\n`);
    },
  };
}

/**
 * Lines for a person, written as they are built but sanitised here, for the few commands that
 * write their own report (handoff) rather than one `result`.
 */
export function writeHuman(stream: 'stdout' | 'stderr', text: string): void {
  process[stream].write(`${terminalLines(text)}\n`);
}

/** Exit codes shared by every command; `baton handoff` adds its own (outcome.ts). */
/** locked: the store is encrypted with a passphrase and no running, unlocked host gave its key; nothing was written. */
export const EXIT = { ok: 0, failure: 1, usage: 2, locked: 6 } as const;
