import { basename } from 'node:path';
import { shellQuote } from '../../shared/agents.js';

/**
 * How an agent's approval hook calls back into this Baton. When the host runs from the `baton`
 * CLI (`baton serve`), the same node and script are used, so the hook works without `baton` on
 * PATH; otherwise (the Electron app) `baton` on PATH, as `baton install` documents.
 * BATON_HOOK_COMMAND overrides both (a development checkout run through tsx).
 */
export function defaultBatonCommand(argv: readonly string[] = process.argv, env: NodeJS.ProcessEnv = process.env, execPath = process.execPath): string {
  if (env.BATON_HOOK_COMMAND) return env.BATON_HOOK_COMMAND;
  const script = argv[1];
  if (script !== undefined && ['baton.js', 'baton'].includes(basename(script))) return `${shellQuote(execPath)} ${shellQuote(script)}`;
  return 'baton';
}
