import { MANIFEST_FULL_OUTPUTS_MAX } from '../../shared/manifest.js';
import type { MessageRecord } from '../../shared/message.js';
import { LastTurns } from '../context/anchors.js';
import type { LandedConversation } from '../context/context-transfer.js';
import { emptyState, extendWith } from '../context/extract.js';
import { DigestBuilder, type ContextDigest } from './context-digest.js';

/**
 * What the manifest says about a new session's conversation, kept as the landing writes each
 * record (issue 20: the records are not held): the digest (counts and hashes), the extractive
 * summary's state (goal, decisions, questions, failures, token units) and the last turns. Bounded:
 * the state keeps a few dozen quotes, the digest two running hashes.
 */
export class LandingTotals {
  private readonly digestBuilder = new DigestBuilder();
  private readonly state = emptyState();
  private readonly turns = new LastTurns();
  /** The trimmed outputs the records name, once each; undefined past MANIFEST_FULL_OUTPUTS_MAX (the manifest lists none then). */
  private outputs: Map<string, string> | undefined = new Map();

  add(record: MessageRecord): void {
    this.digestBuilder.add(record);
    extendWith(this.state, record);
    this.turns.add(record);
    if (this.outputs) {
      if (record.fullOutput) this.outputs.set(record.fullOutput.ref, record.fullOutput.sha256);
      for (const call of record.toolCalls ?? []) if (call.fullOutput) this.outputs.set(call.fullOutput.ref, call.fullOutput.sha256);
      if (this.outputs.size > MANIFEST_FULL_OUTPUTS_MAX) this.outputs = undefined;
    }
  }

  /** Every full-output reference written, or undefined when there are more than a manifest lists. */
  fullOutputs(): { ref: string; sha256: string }[] | undefined {
    return this.outputs && [...this.outputs].map(([ref, sha256]) => ({ ref, sha256 }));
  }

  digest(): ContextDigest {
    return this.digestBuilder.result();
  }

  conversation(): LandedConversation {
    return { state: this.state, lastTurns: this.turns.list() };
  }
}
