import { describe, expect, it } from 'vitest';
import { redactValue } from '../redact/redact-value.js';
import { nodeImportReader } from './reader.js';
import { redactStates } from './redact-state.js';
import { summarizeFile, type FileState } from './summarize-file.js';
import { codex, jsonl } from './test-fixtures/build-logs.js';

const token = 'gh' + 'p_' + 'aB3dE5fG7hJ9kL2mN4pQ6rS8tV0wX1yZaB3d';
const awsKey = 'AKIA' + 'QWERTYUIOPASDFGH';

/** The state a scan makes of a Codex log whose first prompt is `prompt` (read whole from its bytes, as a cold scan does). */
async function stateOf(prompt: string, n: number): Promise<FileState> {
  const bytes = Buffer.from(jsonl([codex.meta(`019b0000-0000-7000-8000-00000000000${n}`), codex.turnContext(), codex.message('user', prompt), codex.message('assistant', 'done')]));
  return (await summarizeFile(nodeImportReader, 'codex', `/home/dev/.codex/sessions/${n}.jsonl`, { size: bytes.length, mtimeMs: 1.79e12 }, undefined, bytes)).state;
}

describe('redactStates', () => {
  it('redacts what came from the log exactly as redacting the whole state did, keys in the same order', async () => {
    const states = [await stateOf(`push with ${token}`, 1), await stateOf('rename the parser', 2), await stateOf(`aws ${awsKey} in the prompt`, 3)];
    const redacted = await redactStates(states);
    expect(JSON.stringify(redacted)).toBe(JSON.stringify((await redactValue(states)).value));
    expect(redacted[0]!.digest.title).toBe('push with [REDACTED:github]');
    expect(redacted[2]!.digest.title).not.toContain(awsKey);
  });

  it('gives back the same states when the log held nothing to redact', async () => {
    const states = [await stateOf('rename the parser', 1), await stateOf('add a test', 2)];
    const redacted = await redactStates(states);
    expect(redacted[0]).toBe(states[0]);
    expect(redacted[1]).toBe(states[1]);
  });

  it("leaves the state's hashes and time as Baton computed them, whatever they look like (the fingerprint names the state)", async () => {
    const state = await stateOf(`push with ${token}`, 1);
    // Shaped like keys on purpose: were they given to the detector, they would be replaced.
    const odd: FileState = { ...state, checkHash: awsKey, fingerprint: token, digest: { ...state.digest, lastKey: awsKey } };
    const [redacted] = await redactStates([odd]);
    expect(redacted!.fingerprint).toBe(token);
    expect(redacted!.checkHash).toBe(awsKey);
    expect(redacted!.digest.lastKey).toBe(awsKey);
    expect(redacted!.digest.updatedAt).toBe(state.digest.updatedAt);
    expect(redacted!.digest.title).toBe('push with [REDACTED:github]');
  });
});
