import { BATON_VERSION } from '../version.js';

/**
 * The `/handoff` files Baton installs into Claude Code and Codex.
 *
 * Claude Code runs each !`…` line of a command file in a shell before the prompt reaches the model,
 * after substituting `${CLAUDE_SESSION_ID}` with the current session's id (Claude Code ≥ 2.1.9;
 * the id is not in the Bash tool's environment). So the line hands off exactly this session, and
 * the model only reports the JSON result. An older Claude Code leaves `${CLAUDE_SESSION_ID}` to the
 * shell, where it is empty: `baton handoff` then refuses with "--from needs exactly one of
 * --session ID or --latest", and the prompt tells the model to fall back to the newest session of
 * this directory (`--latest`). `allowed-tools` lets exactly `baton handoff` run without a prompt.
 *
 * Codex custom prompts are text for the model only (no shell lines, no session id), so the Codex
 * prompt asks the model to run `baton handoff --from codex --latest` in the working directory.
 */
export const HANDOFF_COMMAND_NAME = 'handoff.md';

/** The shell line of the Claude Code command; the e2e test runs it the way Claude Code does. */
export const CLAUDE_HANDOFF_LINE = 'baton handoff --from claude --session "${CLAUDE_SESSION_ID}" --json';
export const CLAUDE_FALLBACK_LINE = 'baton handoff --from claude --latest --json';
export const CODEX_HANDOFF_LINE = 'baton handoff --from codex --latest --json';

const MARKER = `<!-- Installed by \`baton install\` (Baton ${BATON_VERSION}); \`baton uninstall\` removes it. -->`;

export function claudeHandoffCommand(): string {
  return [
    '---',
    'description: Hand this session to the Baton desktop app (or the browser host) and report the result',
    'allowed-tools: Bash(baton handoff:*)',
    '---',
    MARKER,
    '',
    'Baton was asked to take over this session. Its answer, one JSON object:',
    '',
    `!\`${CLAUDE_HANDOFF_LINE}\``,
    '',
    'Report the result to the user in two or three short lines, from the JSON above only:',
    '- `"ok": true` (category `accepted` or `duplicate`): the session is open in Baton; give the `sessionId`.',
    '- `"ok": false`: give the `category` and `message`, where the session is saved (`savedAt`) and the exact `resumeCommand` to offer it again once Baton runs (`npm start` or `baton serve`).',
    `- If the answer says \`--from needs exactly one of --session ID or --latest\`, this Claude Code did not provide the session id: run \`${CLAUDE_FALLBACK_LINE}\` once with the Bash tool and report its answer the same way.`,
    '',
    'Do not change any file and do not retry otherwise.',
    '',
  ].join('\n');
}

export function codexHandoffPrompt(): string {
  return [
    '---',
    'description: Hand this session to the Baton desktop app and report the result',
    '---',
    MARKER,
    '',
    `Run this command once, in the current working directory, and wait for it to finish: \`${CODEX_HANDOFF_LINE}\``,
    '',
    'It prints one JSON object. Report it to the user in two or three short lines:',
    '- `"ok": true` (category `accepted` or `duplicate`): the session is open in Baton; give the `sessionId`.',
    '- `"ok": false`: give the `category` and `message`, where the session is saved (`savedAt`) and the exact `resumeCommand`.',
    '',
    'If the sandbox blocks it (a permission error under ~/.local/share/baton or on the socket), say so and point to docs/install.md in Baton, section "Codex sandbox". Do not change any file and do not retry otherwise.',
    '',
  ].join('\n');
}
