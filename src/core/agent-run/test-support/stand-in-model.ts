import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The stand-in model for the real-binary tests: a loopback HTTP server speaking just enough of the
 * Anthropic Messages API (SSE) for Claude Code and of the OpenAI Responses API (SSE) for Codex.
 * Only the model is stood in for; the agents run as shipped. A script says what the next turns
 * answer: a tool call, then text once the tool result comes back.
 */
export type ScriptStep =
  | { kind: 'text'; text: string }
  /** A shell call: Bash for Claude Code, exec_command/shell for Codex. */
  | { kind: 'shell'; command: string };

export interface StandInModel {
  readonly url: string;
  /** Every request body the agents sent, for assertions and exploration. */
  readonly requests: Array<{ path: string; body: unknown }>;
  /** Replaces the script: each agent request that carries a user turn takes the next step. */
  script(steps: ScriptStep[]): void;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 32 * 1024 * 1024;
/** Text returned when the script runs out (and for the agents' side requests: titles, summaries). */
const FALLBACK_TEXT = 'Done.';

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) reject(new Error(`stand-in model: request over ${MAX_BODY_BYTES} bytes`));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sse(res: ServerResponse, events: Array<[string, unknown]>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' });
  for (const [event, data] of events) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  res.end();
}

let counter = 0;
const nextId = (prefix: string): string => `${prefix}_${Date.now().toString(36)}${(counter++).toString(36)}`;

function anthropicEvents(step: ScriptStep, model: string): Array<[string, unknown]> {
  const id = nextId('msg');
  const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const start: [string, unknown] = ['message_start', { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage } }];
  if (step.kind === 'text') {
    return [
      start,
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: step.text } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } }],
      ['message_stop', { type: 'message_stop' }],
    ];
  }
  const input = JSON.stringify({ command: step.command, description: `Run ${step.command}` });
  return [
    start,
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: nextId('toolu'), name: 'Bash', input: {} } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: input } }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 5 } }],
    ['message_stop', { type: 'message_stop' }],
  ];
}

function responsesEvents(step: ScriptStep, model: string): Array<[string, unknown]> {
  const id = nextId('resp');
  const item =
    step.kind === 'text'
      ? { type: 'message', id: nextId('msg'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: step.text, annotations: [] }] }
      : // Codex 0.169 offers `exec_command` {cmd} (a PTY); the older `shell` tool is gone.
        { type: 'function_call', id: nextId('fc'), call_id: nextId('call'), name: 'exec_command', arguments: JSON.stringify({ cmd: step.command, login: false }), status: 'completed' };
  const events: Array<[string, unknown]> = [['response.created', { type: 'response.created', response: { id, model, status: 'in_progress', output: [] } }]];
  events.push(['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item: step.kind === 'text' ? { ...item, status: 'in_progress', content: [] } : { ...item, status: 'in_progress' } }]);
  if (step.kind === 'text') events.push(['response.output_text.delta', { type: 'response.output_text.delta', item_id: item.id, output_index: 0, content_index: 0, delta: step.text }]);
  events.push(['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }]);
  events.push(['response.completed', { type: 'response.completed', response: { id, model, status: 'completed', output: [item], usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } } } }]);
  return events;
}

/** Whether an Anthropic request is a main-loop turn (it offers tools) rather than a side request (title, quota probe). */
function isMainTurn(body: { tools?: unknown[] }): boolean {
  return Array.isArray(body.tools) && body.tools.length > 0;
}

export async function startStandInModel(): Promise<StandInModel> {
  let steps: ScriptStep[] = [];
  const requests: StandInModel['requests'] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      let body: Record<string, unknown> = {};
      try {
        body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      } catch {
        body = { unparsed: text.slice(0, 200) };
      }
      const path = (req.url ?? '/').split('?')[0]!;
      requests.push({ path, body });
      const model = typeof body.model === 'string' ? body.model : 'stand-in';
      if (req.method === 'POST' && path.endsWith('/v1/messages')) {
        const step = isMainTurn(body as { tools?: unknown[] }) ? (steps.shift() ?? { kind: 'text', text: FALLBACK_TEXT }) : { kind: 'text' as const, text: FALLBACK_TEXT };
        if (body.stream === false) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ id: nextId('msg'), type: 'message', role: 'assistant', model, content: [{ type: 'text', text: FALLBACK_TEXT }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } }));
          return;
        }
        sse(res, anthropicEvents(step, model));
        return;
      }
      if (req.method === 'POST' && path.endsWith('/responses')) {
        sse(res, responsesEvents(steps.shift() ?? { kind: 'text', text: FALLBACK_TEXT }, model));
        return;
      }
      if (path.endsWith('/models')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: [], object: 'list' }));
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'not_found', message: `stand-in model: no ${req.method} ${path}` } }));
    })().catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(next) {
      steps = [...next];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
