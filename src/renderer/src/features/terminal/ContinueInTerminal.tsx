import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { toApiError, type ApiError } from '../../api';
import type { TerminalCommand } from '../../../../shared/agents';
import { useApi } from '../../hooks/api-context';
import { copyShortcut, copyText, selectContents } from './copy-text';

/** How long "Copied" stays on the button. */
export const COPIED_FEEDBACK_MS = 1_500;

const TOOL_LABEL: Record<TerminalCommand['tool'], string> = { claude: 'Claude Code', codex: 'Codex CLI', baton: 'Baton' };

type State = { kind: 'closed' } | { kind: 'loading' } | { kind: 'ready'; command: TerminalCommand } | { kind: 'failed'; error: ApiError };

/** "Continue in terminal": asks the host for the exact command and shows it with a Copy button. */
export function ContinueInTerminal({ sessionId }: { sessionId: string }) {
  const api = useApi();
  const popoverId = useId();
  const [state, setState] = useState<State>({ kind: 'closed' });
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const open = state.kind !== 'closed';

  const close = useCallback((refocus: boolean) => {
    setState({ kind: 'closed' });
    if (refocus) button.current?.focus();
  }, []);

  // Another session: the command of the previous one must not linger.
  useEffect(() => setState({ kind: 'closed' }), [sessionId]);

  useEffect(() => {
    if (!open) return;
    const onDown = (event: MouseEvent): void => {
      if (root.current !== null && !root.current.contains(event.target as Node)) close(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open, close]);

  function toggle(): void {
    if (open) return close(false);
    setState({ kind: 'loading' });
    api.invoke('terminal:command', { sessionId }).then(
      (command) => setState((s) => (s.kind === 'loading' ? { kind: 'ready', command } : s)),
      (error: unknown) => setState((s) => (s.kind === 'loading' ? { kind: 'failed', error: toApiError(error, 'terminal:command') } : s)),
    );
  }

  return (
    <div
      className="terminal-anchor"
      ref={root}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation();
          close(true);
        }
      }}
    >
      <button
        type="button"
        className="button button-small button-secondary"
        ref={button}
        onClick={toggle}
        aria-expanded={open}
        aria-controls={open ? popoverId : undefined}
        data-testid="continue-in-terminal"
      >
        <span aria-hidden="true">&gt;_ </span>Continue in terminal
      </button>
      {open && (
        <div className="popover" id={popoverId} role="dialog" aria-label="Continue in terminal" data-testid="terminal-popover">
          {state.kind === 'loading' && (
            <p className="muted" role="status">
              Working out the command…
            </p>
          )}
          {state.kind === 'failed' && (
            <p className="inline-error" role="alert">
              Could not build the command: {state.error.message} <code>{state.error.code}</code>
            </p>
          )}
          {state.kind === 'ready' && <CommandView command={state.command} />}
        </div>
      )}
    </div>
  );
}

function CommandView({ command }: { command: TerminalCommand }) {
  const code = useRef<HTMLElement>(null);
  const [copied, setCopied] = useState<'idle' | 'copied' | 'select'>('idle');

  useEffect(() => {
    if (copied !== 'copied') return;
    const timer = setTimeout(() => setCopied('idle'), COPIED_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy(): Promise<void> {
    const outcome = await copyText(command.shellLine);
    if (outcome === 'select' && code.current !== null) selectContents(code.current);
    setCopied(outcome);
  }

  return (
    <>
      <p className="popover-title">
        Run this in a terminal to continue with <strong data-testid="terminal-tool">{TOOL_LABEL[command.tool]}</strong>
      </p>
      {command.sshHost != null && (
        <div className="notice" role="note" data-testid="terminal-ssh">
          The workspace is on <code>{command.sshHost}</code>: the command opens it there over ssh.
          {command.movedTo !== null && (
            <>
              {' '}
              This computer has a clone of the same repository at <code data-testid="terminal-local-clone">{command.movedTo}</code>.
            </>
          )}
        </div>
      )}
      {!command.cwdExists && command.sshHost == null && (
        <div className="notice notice-warn" role="note" data-testid="terminal-cwd-gone">
          The directory <code>{command.cwd}</code> no longer exists.
          {command.movedTo !== null && (
            <>
              {' '}
              It looks like it moved to <code data-testid="terminal-moved-to">{command.movedTo}</code>; the command below uses that.
            </>
          )}
        </div>
      )}
      <div className="copyable terminal-line">
        <pre>
          <code ref={code} data-testid="terminal-shell-line">
            {command.shellLine}
          </code>
        </pre>
        <button type="button" className="button button-small" onClick={() => void copy()} data-testid="terminal-copy" autoFocus>
          {copied === 'copied' ? 'Copied' : 'Copy'}
        </button>
      </div>
      <p className="muted popover-foot" aria-live="polite" data-testid="terminal-copy-status">
        {copied === 'select' ? `The clipboard is not available here: the command is selected, press ${copyShortcut()}.` : copied === 'copied' ? 'Copied to the clipboard.' : command.sshHost != null ? `Runs in ${command.cwd} on ${command.sshHost}` : `Runs in ${command.cwdExists || command.movedTo === null ? command.cwd : command.movedTo}`}
      </p>
    </>
  );
}
