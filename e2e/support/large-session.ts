import { openStore } from '../../src/core/store/index.js';
import type { MessageInput } from '../../src/shared/message.js';

/** A phrase said only in the first message of the large session (search-in-session jumps to it). */
export const FIRST_MESSAGE_PHRASE = 'quokka-calibrated retry budget';

/**
 * Messages like an agent's: prose with Markdown, a fenced block now and then, tool calls with
 * their results as separate `tool` messages (folded into the call's card by the UI).
 */
export function agentMessages(count: number): MessageInput[] {
  const messages: MessageInput[] = [];
  for (let i = 0; messages.length < count; i++) {
    const n = messages.length;
    if (n === 0) {
      messages.push({ role: 'user', content: `Plan the ${FIRST_MESSAGE_PHRASE} for the payment worker.` });
    } else if (i % 4 === 1) {
      messages.push({ role: 'user', content: `Step ${n}: check the **timeout** handling in \`worker-${n % 97}.ts\`.` });
    } else if (i % 4 === 2) {
      const code = i % 8 === 2 ? `\n\n\`\`\`ts\nexport function retry${n}(attempt: number): number {\n  return Math.min(30_000, 2 ** attempt * 100);\n}\n\`\`\`\n` : '';
      messages.push({
        role: 'assistant',
        content: `## Finding ${n}\n\nThe worker retried *without* a cap.${code}\n- capped the backoff\n- kept the jitter`,
        toolCalls: [{ id: `call-${n}`, name: 'Bash', input: { command: `npm test -- worker-${n % 97}` } }],
      });
    } else if (i % 4 === 3) {
      messages.push({ role: 'tool', toolCallId: `call-${n - 1}`, content: `✓ worker-${(n - 1) % 97} (12 tests)\nDone in 1.${n % 10}s`, exitCode: 0 });
    } else {
      messages.push({ role: 'assistant', content: `Message ${n}: nothing else changed.` });
    }
  }
  return messages;
}

/** Lands a session of `count` messages straight into the store at `home` (as a handoff would). */
export async function seedLargeSession(home: string, count: number, title = `${count.toLocaleString('en-US')} messages`): Promise<string> {
  const store = await openStore(home);
  try {
    const session = await store.createSession({ cwd: '/work/payments', gitRoot: null, branch: null, title, source: { tool: 'claude' }, holder: 'terminal' }, agentMessages(count));
    return session.id;
  } finally {
    await store.close();
  }
}
