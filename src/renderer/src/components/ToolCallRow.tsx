import { useMemo } from 'react';
import type { ToolCall } from '../../../shared/message';
import { countLines, summarizeInput } from '../model/collapse';
import { CollapsibleText } from './CollapsibleText';
import { ExitBadge } from './ExitBadge';
import { FullOutput } from '../features/conversation/FullOutput';

/** One tool call on one line (name, input, exit code); its output folded underneath. */
export function ToolCallRow({ call, sessionId }: { call: ToolCall; sessionId: string }) {
  const input = useMemo(() => summarizeInput(call.input), [call.input]);
  const output = call.output ?? '';
  const outputLines = useMemo(() => countLines(output), [output]);
  return (
    <div className="tool-call" data-testid="tool-call" data-tool-call-id={call.id}>
      <div className="tool-call-line">
        <span className="tool-icon" aria-hidden="true">
          ›_
        </span>
        <code className="tool-name">{call.name}</code>
        {input.length > 0 && (
          <span className="tool-input" title={input}>
            {input}
          </span>
        )}
        <ExitBadge code={call.exitCode} />
      </div>
      {output.length > 0 && (
        <details className="tool-output">
          <summary>
            output · {call.fullOutput ? `trimmed from ${call.fullOutput.lines.toLocaleString()} lines` : `${outputLines} ${outputLines === 1 ? 'line' : 'lines'}`}
          </summary>
          {call.fullOutput ? <FullOutput sessionId={sessionId} output={call.fullOutput} trimmed={output} /> : <CollapsibleText text={output} mono />}
        </details>
      )}
    </div>
  );
}
