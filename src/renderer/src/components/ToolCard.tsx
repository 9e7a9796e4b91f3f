import { useMemo } from 'react';
import type { ToolCall } from '../../../shared/message';
import type { ToolResult } from '../model/pair-tool-results';
import { countLines, summarizeInput } from '../model/collapse';
import { formatCount } from '../model/format-number';
import { CollapsibleText } from './CollapsibleText';
import { ExitBadge } from './ExitBadge';
import { FullOutput } from '../features/conversation/FullOutput';
import { CodeBlock } from '../features/conversation/CodeBlock';

/**
 * One tool call as one collapsible card: name, input and exit code on the closed line; the full
 * input, the trimmed output and "Show full output" inside. The result comes from the call itself
 * or from the `tool` message that answered it (which is then not shown on its own).
 */
export function ToolCard({ call, result, sessionId }: { call: ToolCall; result: ToolResult | undefined; sessionId: string }) {
  const summary = useMemo(() => summarizeInput(call.input), [call.input]);
  const inputJson = useMemo(() => (call.input === undefined ? '' : typeof call.input === 'string' ? call.input : JSON.stringify(call.input, null, 2)), [call.input]);
  const output = call.output ?? result?.output ?? '';
  const fullOutput = call.fullOutput ?? result?.fullOutput;
  const exitCode = call.exitCode !== undefined ? call.exitCode : result?.exitCode;
  const outputLines = useMemo(() => countLines(output), [output]);
  return (
    <details className="tool-call" data-testid="tool-call" data-tool-call-id={call.id}>
      <summary className="tool-call-line">
        <span className="tool-icon" aria-hidden="true">
          ›_
        </span>
        <code className="tool-name">{call.name}</code>
        {summary.length > 0 && (
          <span className="tool-input" title={summary}>
            {summary}
          </span>
        )}
        <ExitBadge code={exitCode} />
      </summary>
      <div className="tool-call-body">
        {inputJson.length > 0 && (
          <div className="tool-section" data-testid="tool-input">
            <div className="tool-section-label">Input</div>
            <CodeBlock code={inputJson} fence={typeof call.input === 'string' ? undefined : 'json'} />
          </div>
        )}
        <div className="tool-section" data-testid="tool-output">
          <div className="tool-section-label">
            Output
            <span className="muted">
              {' · '}
              {output.length === 0 && fullOutput === undefined
                ? 'none recorded'
                : fullOutput
                  ? `trimmed from ${formatCount(fullOutput.lines)} lines`
                  : `${formatCount(outputLines)} ${outputLines === 1 ? 'line' : 'lines'}`}
            </span>
          </div>
          {fullOutput ? <FullOutput sessionId={sessionId} output={fullOutput} trimmed={output} /> : output.length > 0 && <CollapsibleText text={output} mono />}
        </div>
      </div>
    </details>
  );
}
