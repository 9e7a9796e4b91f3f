import { open } from 'node:fs/promises';

/**
 * The messages file the store benches hand off: `count` alternating user/assistant messages of
 * ~290 bytes each (100,000 ≈ 29 MB of JSONL in, a 40 MB log once landed).
 */
export async function writeBenchMessages(path: string, count: number): Promise<void> {
  const file = await open(path, 'w');
  try {
    for (let at = 0; at < count; at += 10_000) {
      const lines = Array.from({ length: Math.min(10_000, count - at) }, (_, j) => {
        const i = at + j;
        return `${JSON.stringify({ role: i % 2 ? 'assistant' : 'user', content: `Message ${i}: ${'lorem ipsum dolor sit amet '.repeat(9)}` })}\n`;
      });
      await file.write(lines.join(''));
    }
  } finally {
    await file.close();
  }
}
