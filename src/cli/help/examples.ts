/** Examples for `baton help <command>` and docs/cli.md, keyed by command path ("task register"). */
export interface Example {
  command: string;
  what: string;
}

export const EXAMPLES: Record<string, Example[]> = {
  handoff: [
    { command: 'baton handoff --cwd . --title "Fix login" --messages session.jsonl', what: 'save a conversation (JSONL messages) and offer it to the desktop' },
    { command: 'baton handoff --from claude --latest', what: 'the newest Claude Code session of this directory' },
    { command: 'baton handoff --from codex --session 019a7b2c-1d3e-7f40-8a51-b6c7d8e9f012', what: 'a Codex rollout by id (or by path)' },
    { command: 'baton handoff --session <id>', what: 'offer a saved session again after a failed attempt' },
    { command: 'baton handoff --from claude --latest --dry-run --json', what: 'save and build the manifest, offer nothing, print JSON' },
  ],
  list: [
    { command: 'baton list', what: 'Baton sessions and Claude Code / Codex sessions, grouped by directory' },
    { command: 'baton list --no-agents --json', what: "only Baton's own sessions, as JSON" },
  ],
  show: [
    { command: 'baton show <id>', what: 'the session and its last 50 messages' },
    { command: 'baton show <id> --all --json', what: 'every message, with any damage, as JSON' },
  ],
  serve: [
    { command: 'baton serve', what: 'the browser host on a free port of 127.0.0.1; open the printed URL' },
    { command: 'baton serve --port 4780', what: 'on a fixed port' },
  ],
  resume: [{ command: 'baton resume <id>', what: 'take the session back to the terminal and print where to continue' }],
  doctor: [
    { command: 'baton doctor', what: 'check the store, the endpoint, the display and the desktop app; each failure with its fix' },
    { command: 'baton doctor --json', what: 'the same checks as JSON' },
  ],
  stats: [{ command: 'baton stats', what: 'handoff success rate and outcomes from events.jsonl' }],
  approve: [
    { command: 'baton approve --hook claude', what: "as Claude Code's PreToolUse hook (baton install claude sets it up)" },
    { command: `echo '{"tool":"Bash","input":{"command":"rm -rf build"},"cwd":"/repo","sessionId":"s1"}' | baton approve --json`, what: 'any agent: exit 0 allow, 10 deny, 11 ask' },
  ],
  task: [{ command: 'baton task list', what: 'every background task with its state' }],
  'task register': [{ command: 'baton task register --command "npm run dev" --kind dev-server --port 5173 --session <id>', what: 'register a task; prints its id and epoch' }],
  'task heartbeat': [{ command: 'baton task heartbeat <task-id> --epoch 1', what: 'renew the lease (exit 3: stop working on it)' }],
  'task complete': [{ command: 'baton task complete <task-id> --epoch 1 --status succeeded --exit-code 0', what: 'record the outcome once' }],
  'task result': [{ command: 'baton task result <task-id> --client terminal-b', what: 'read the outcome, with a receipt' }],
  'task list': [{ command: 'baton task list --session <id> --json', what: "one session's tasks as JSON" }],
  policy: [{ command: 'baton policy explain < call.json', what: 'how the risk policy rates a tool call' }],
  'policy explain': [{ command: `echo '{"tool":"Bash","input":{"command":"git push --force"},"cwd":"/repo"}' | baton policy explain`, what: 'level, reasons and the rule "allow for session" would create' }],
  install: [
    { command: 'baton install claude --dry-run', what: 'print the diff of what it would write' },
    { command: 'baton install claude', what: '/handoff and the approval hook for Claude Code ($CLAUDE_CONFIG_DIR or ~/.claude)' },
    { command: 'baton install claude --project', what: "into this project's .claude/" },
    { command: 'baton install codex', what: '/prompts:handoff for Codex ($CODEX_HOME or ~/.codex)' },
  ],
  uninstall: [
    { command: 'baton uninstall claude', what: 'remove /handoff and the hook (settings back to their bytes if untouched since)' },
    { command: 'baton uninstall codex --dry-run', what: 'print what it would remove' },
  ],
  completion: [
    { command: 'source <(baton completion bash)', what: 'completion in this bash' },
    { command: 'source <(baton completion zsh)', what: 'for zsh: put this line in ~/.zshrc, after compinit' },
    { command: 'baton completion fish > ~/.config/fish/completions/baton.fish', what: 'install it for fish' },
  ],
  help: [
    { command: 'baton help handoff', what: "a command's options and examples" },
    { command: 'baton help task register', what: 'a subcommand' },
  ],
};
