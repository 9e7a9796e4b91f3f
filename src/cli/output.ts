/** Version of every `--json` object the CLI prints; bumped on an incompatible change. */
export const CLI_JSON_VERSION = 1;

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
      else process.stdout.write(`${human()}\n`);
    },
    problem(command, code, message, extra = {}) {
      if (json) process.stdout.write(`${JSON.stringify({ version: CLI_JSON_VERSION, command, ok: false, code, message, ...extra })}\n`);
      else process.stderr.write(`baton ${command}: ${message}\n`);
    },
  };
}

/** Exit codes shared by every command; `baton handoff` adds its own (outcome.ts). */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;
