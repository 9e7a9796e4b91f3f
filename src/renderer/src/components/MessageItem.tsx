import type { MessageRecord, MessageRole } from '../../../shared/message';
import { formatDateTime, formatMessageTime } from '../model/relative-time';
import { CollapsibleText } from './CollapsibleText';
import { ExitBadge } from './ExitBadge';
import { ToolCallRow } from './ToolCallRow';
import { FullOutput } from '../features/conversation/FullOutput';

const ROLE_LABELS: Record<MessageRole, string> = { user: 'User', assistant: 'Assistant', tool: 'Tool result', system: 'System' };

/** One message of the conversation, styled by role; tool results are compact and monospaced. */
export function MessageItem({ message, now, sessionId, anchor = false }: { message: MessageRecord; now: number; sessionId: string; anchor?: boolean }) {
  const isTool = message.role === 'tool';
  return (
    <li className={`message message-${message.role}`} data-testid="message" data-role={message.role} data-message-id={message.id} data-anchor={anchor || undefined}>
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
      </div>
      {message.fullOutput ? (
        <FullOutput sessionId={sessionId} output={message.fullOutput} trimmed={message.content} />
      ) : (
        message.content.length > 0 && <CollapsibleText text={message.content} mono={isTool} />
      )}
      {message.toolCalls !== undefined && message.toolCalls.length > 0 && (
        <div className="tool-calls">
          {message.toolCalls.map((call) => (
            <ToolCallRow key={call.id} call={call} sessionId={sessionId} />
          ))}
        </div>
      )}
    </li>
  );
}
