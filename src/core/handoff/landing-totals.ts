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

  add(record: MessageRecord): void {
    this.digestBuilder.add(record);
    extendWith(this.state, record);
    this.turns.add(record);
  }

  digest(): ContextDigest {
    return this.digestBuilder.result();
  }

  conversation(): LandedConversation {
    return { state: this.state, lastTurns: this.turns.list() };
  }
}
