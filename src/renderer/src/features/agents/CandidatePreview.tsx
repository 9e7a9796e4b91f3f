import { useEffect, useMemo, useState } from 'react';
import type { AgentCandidate } from '../../../../shared/agents';
import type { MessageRecord } from '../../../../shared/message';
import { toApiError } from '../../api';
import { MessageItem } from '../../components/MessageItem';
import { useApi } from '../../hooks/api-context';
import { formatCount } from '../../model/format-number';
import { pairToolResults } from '../../model/pair-tool-results';

/** Messages per preview page: a few screens, so the panel stays light; older pages on request. */
export const PREVIEW_PAGE = 40;

type Preview = { status: 'loading' } | { status: 'failed'; message: string; code: string } | { status: 'ready'; messages: MessageRecord[]; total: number };

/**
 * The conversation of a Claude Code / Codex session that is not in Baton, read-only (agents:preview:
 * the host converts the log with the importer "Open in Baton" uses; nothing is imported). Opens
 * at the newest page; "Show older messages" prepends the page before it.
 */
export function CandidatePreview({ candidate, now }: { candidate: AgentCandidate; now: number }) {
  const api = useApi();
  const [preview, setPreview] = useState<Preview>({ status: 'loading' });
  const [loadingOlder, setLoadingOlder] = useState(false);
  const key = `${candidate.source}:${candidate.path}:${candidate.fingerprint}`;

  useEffect(() => {
    let live = true;
    setPreview({ status: 'loading' });
    api.invoke('agents:preview', { source: candidate.source, path: candidate.path, limit: PREVIEW_PAGE }).then(
      (page) => live && setPreview({ status: 'ready', ...page }),
      (error: unknown) => {
        const failure = toApiError(error);
        if (live) setPreview({ status: 'failed', message: failure.message, code: failure.code });
      },
    );
    return () => {
      live = false;
    };
    // The key names the candidate and its state: a new state is a new preview.
  }, [api, key]);

  const messages = preview.status === 'ready' ? preview.messages : [];
  const paired = useMemo(() => pairToolResults(messages), [messages]);

  function older(): void {
    if (preview.status !== 'ready' || messages.length === 0) return;
    setLoadingOlder(true);
    api.invoke('agents:preview', { source: candidate.source, path: candidate.path, beforeIndex: messages[0]!.seq, limit: PREVIEW_PAGE }).then(
      (page) => {
        setLoadingOlder(false);
        setPreview((current) => (current.status === 'ready' ? { status: 'ready', total: page.total, messages: [...page.messages, ...current.messages] } : current));
      },
      (error: unknown) => {
        setLoadingOlder(false);
        const failure = toApiError(error);
        setPreview({ status: 'failed', message: failure.message, code: failure.code });
      },
    );
  }

  return (
    <section className="conversation candidate-preview" aria-labelledby="candidate-preview-heading" data-testid="candidate-preview">
      <h2 className="conversation-heading" id="candidate-preview-heading">
        Conversation <span className="muted">· read-only preview{preview.status === 'ready' ? `, ${formatCount(preview.messages.length)} of ${formatCount(preview.total)} messages` : ''}</span>
      </h2>
      {preview.status === 'loading' && <p className="muted">Reading the log…</p>}
      {preview.status === 'failed' && (
        <p className="inline-error" role="alert" data-testid="candidate-preview-error">
          Could not read the conversation: {preview.message} <code>{preview.code}</code>
        </p>
      )}
      {preview.status === 'ready' && messages.length > 0 && messages[0]!.seq > 0 && (
        <button type="button" className="button-link" data-testid="candidate-preview-older" onClick={older} disabled={loadingOlder}>
          {loadingOlder ? 'Loading…' : `Show older messages (${formatCount(messages[0]!.seq)} more)`}
        </button>
      )}
      {preview.status === 'ready' && preview.total === 0 && <p className="muted">The log holds no messages yet.</p>}
      <ol className="messages">
        {paired.shown.map((message) => (
          <li key={message.seq}>
            <MessageItem message={message} now={now} sessionId="" results={paired.results} />
          </li>
        ))}
      </ol>
    </section>
  );
}
