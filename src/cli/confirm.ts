import { createInterface } from 'node:readline/promises';
import { terminalLines } from './terminal-text.js';

/**
 * Asks a person before something is removed. Without a terminal there is nobody to ask: the
 * caller must have passed --yes, so this answers false and the command says so.
 */
export async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${terminalLines(question)} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
