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
    { command: 'baton serve --port 4780', what: 'on a fixed port; on a remote box, reach it from your laptop with ssh -L 4780:127.0.0.1:4780 devbox and open the printed URL' },
    { command: 'BATON_PASSPHRASE_FD=3 baton serve 3<pass.txt', what: 'a store in passphrase mode, from a script: the passphrase is read from descriptor 3, never from argv (a terminal is asked without echo)' },
    { command: 'baton serve --locked', what: 'a store in passphrase mode, started locked: open the printed URL and enter the passphrase on the unlock screen (Lock there drops the key; the CLI exits 6 while locked)' },
    { command: 'baton serve --port 4780 --json', what: 'the URL as JSON; through ssh -L 9000:127.0.0.1:4780 devbox, open it with port 9000 instead (any local port works)' },
  ],
  ssh: [
    { command: 'baton ssh devbox', what: 'a shell on devbox whose baton handoff, approve and task reach this desktop' },
    { command: 'baton ssh me@gpu-box -p 2222 -i ~/.ssh/gpu', what: 'ssh options go after the host' },
    { command: 'baton ssh devbox -- claude', what: 'run a command instead of a login shell' },
  ],
  resume: [
    { command: 'baton resume <id>', what: 'take the session back to the terminal and print where to continue' },
    { command: 'baton resume', what: 'on a terminal: pick one, grouped by directory, type to filter (Claude Code / Codex sessions print their own resume command)' },
  ],
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
  relay: [{ command: 'baton relay connect nats://127.0.0.1:4222', what: 'use a NATS JetStream server for handoffs across machines' }],
  'relay connect': [
    { command: 'baton relay connect nats://relay.example:4222 --creds ~/.config/baton/relay.creds', what: 'connect with a NATS credentials file' },
    { command: 'baton relay connect tls://relay.example:4222 --token <token> --tls-ca ca.pem', what: 'a TLS server with a token' },
  ],
  'relay status': [{ command: 'baton relay status --json', what: 'reachable, JetStream on, every bucket present, clock skew' }],
  'relay disconnect': [{ command: 'baton relay disconnect', what: 'forget the relay (what is on it stays; see relay purge)' }],
  'relay claim': [{ command: 'baton relay claim <session-id>', what: 'take the baton of a relayed session (CONFLICT names the holder)' }],
  'relay purge': [{ command: 'baton relay purge --json', what: "delete everything of this device from the relay and list what went" }],
  device: [{ command: 'baton device list', what: 'this device and the devices it is paired with' }],
  'device pair': [{ command: 'baton device pair', what: 'print a one-time code and baton://pair link, then wait for the other device' }],
  'device join': [{ command: 'baton device join <code>', what: 'join the device that printed this code' }],
  'device list': [{ command: 'baton device list --json', what: 'paired devices with their fingerprints, as JSON' }],
  'device remove': [{ command: 'baton device remove laptop', what: 'revoke a paired device: its handoffs are refused from now on' }],
  encrypt: [
    { command: 'baton encrypt --status', what: 'whether sessions are encrypted at rest, with which key, or why not' },
    { command: 'baton encrypt --enable', what: 'encrypt an existing store with a new key in the OS keychain (quit the desktop app first)' },
    { command: 'baton encrypt --enable --passphrase', what: 'no OS keychain here: derive the key from a passphrase typed without echo; then run baton serve, which asks for it and lends the key to the CLI (exit 6 while no host runs)' },
  ],
  key: [{ command: 'baton key rotate', what: 're-encrypt every session under a new key' }],
  'key rotate': [{ command: 'baton key rotate --json', what: 'rotate, and print the old and new key ids as JSON' }],
  archive: [
    { command: 'baton archive <session-id>', what: 'archive a session locally (never deleted)' },
    { command: 'baton archive <session-id> --relay', what: 'also keep an encrypted cold copy on the relay' },
    { command: 'baton archive <id-1> <id-2> <id-3>', what: 'archive several sessions at once' },
  ],
  unarchive: [
    { command: 'baton unarchive <session-id> --relay', what: 'bring an archived session back from the relay' },
    { command: 'baton unarchive <id-1> <id-2>', what: 'bring several archived sessions back to the session list' },
  ],
  export: [
    { command: 'baton export <session-id> --out work.baton', what: 'one signed bundle file to move with scp or a USB stick' },
    { command: 'baton export <session-id> --passphrase-file pass.txt', what: 'encrypted with a passphrase (scrypt + AES-256-GCM)' },
    { command: 'baton export <session-id> --to-device desk', what: 'encrypted so that only the paired device "desk" can open it' },
  ],
  import: [
    { command: 'baton import work.baton', what: 'verify every hash and the signature, then add the session (twice: duplicate)' },
    { command: 'baton import work.baton --passphrase-file pass.txt', what: 'a passphrase-encrypted bundle' },
    { command: 'baton import found.baton --trust', what: 'a bundle from a device that is not paired (warns)' },
  ],
  delete: [
    { command: 'baton delete <session-id>', what: 'names what goes, asks, then removes every file, index entry and receipt' },
    { command: 'baton delete <id-1> <id-2> --yes --json', what: 'several sessions, without asking (scripts)' },
  ],
  purge: [
    { command: 'baton purge --dry-run', what: 'list every session, archive, receipt, event and cache it would remove, with sizes' },
    { command: 'baton purge --yes', what: 'remove it all and leave an empty, valid data directory' },
  ],
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
