import { memo } from 'react';
import type { MessageRecord, MessageRole } from '../../../shared/message';
import type { ToolResult } from '../model/pair-tool-results';
import { formatDateTime, formatMessageTime } from '../model/relative-time';
import { CollapsibleText } from './CollapsibleText';
import { CopyButton } from './CopyButton';
import { ExitBadge } from './ExitBadge';
import { ToolCard } from './ToolCard';
import { FullOutput } from '../features/conversation/FullOutput';
import { LazyMarkdownText } from '../features/conversation/LazyMarkdownText';

const ROLE_LABELS: Record<MessageRole, string> = { user: 'User', assistant: 'Assistant', tool: 'Tool result', system: 'System' };

export interface MessageItemProps {
  message: MessageRecord;
  now: number;
  sessionId: string;
  anchor?: boolean;
  /** Results of this message's tool calls that came as separate `tool` messages. */
  results?: ReadonlyMap<string, ToolResult>;
  /** The current search hit: outlined. */
  highlighted?: boolean;
}

/**
 * One message of the conversation, styled by role: text as Markdown, each tool call as a card
 * holding its result. A `tool` message shows on its own only when its call is not loaded.
 */
export const MessageItem = memo(function MessageItem({ message, now, sessionId, anchor = false, results, highlighted = false }: MessageItemProps) {
  const isTool = message.role === 'tool';
  return (
    <div className={`message message-${message.role}`} data-testid="message" data-role={message.role} data-message-id={message.id} data-seq={message.seq} data-anchor={anchor || undefined} data-hit={highlighted || undefined}>
      <div className="message-header">
        <span className="message-role">{ROLE_LABELS[message.role]}</span>
        {anchor && (
          <span className="badge badge-anchor" title="An anchor of the last handoff: a goal, a decision or constraint, an open question or a last turn">
            anchor
          </span>
        )}
        {isTool && message.toolCallId !== undefined && <code className="message-call-id">{message.toolCallId}</code>}
        {isTool && <ExitBadge code={message.exitCode} />}
        {message.model !== undefined && message.role === 'assistant' && <span className="muted">{message.model}</span>}
        <time className="message-time" dateTime={message.createdAt} title={formatDateTime(message.createdAt)}>
          {formatMessageTime(message.createdAt, now)}
        </time>
        {message.content.length > 0 && <CopyButton text={message.content} label={`Copy ${ROLE_LABELS[message.role].toLowerCase()} message`} />}
      </div>
      {message.fullOutput ? (
        <FullOutput sessionId={sessionId} output={message.fullOutput} trimmed={message.content} />
      ) : isTool ? (
        message.content.length > 0 && <CollapsibleText text={message.content} mono />
      ) : (
        message.content.length > 0 && <LazyMarkdownText text={message.content} />
      )}
      {message.toolCalls !== undefined && message.toolCalls.length > 0 && (
        <div className="tool-calls">
          {message.toolCalls.map((call) => (
            <ToolCard key={call.id} call={call} result={results?.get(call.id)} sessionId={sessionId} />
          ))}
        </div>
      )}
    </div>
  );
});
