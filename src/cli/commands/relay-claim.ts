import { resolveDataDir } from '../../core/paths.js';
import { deviceLabel, readPeers } from '../../core/crypto/peers.js';
import { claimHead } from '../../core/relay/heads.js';
import { openDeviceRelay } from '../../core/relay/open-relay.js';
import { isValidId } from '../../shared/ids.js';
import { HANDOFF_EXIT_CODE } from '../../core/handoff/outcome.js';
import { EXIT, type Output } from '../output.js';
import { relayProblem } from './relay.js';

export async function runClaim(out: Output, sessionId: string): Promise<number> {
  if (!isValidId(sessionId)) {
    out.problem('relay claim', 'BAD_ARGUMENT', `"${sessionId}" is not a valid session id`);
    return EXIT.usage;
  }
  const dataDir = resolveDataDir();
  let opened;
  try {
    opened = await openDeviceRelay(dataDir);
  } catch (error) {
    return relayProblem(out, 'relay claim', error);
  }
  const { relay, identity } = opened;
  try {
    const result = await claimHead(relay, sessionId, identity);
    if (result.ok) {
      out.result('relay claim', { sessionId, holder: identity.deviceId, epoch: result.head.epoch }, () => `This device (${identity.name}) holds session ${sessionId} at epoch ${result.head.epoch}.`);
      return EXIT.ok;
    }
    const peers = await readPeers(dataDir);
    const known = [identity, ...peers];
    const holderName = known.find((d) => d.deviceId === result.head.holder)?.name ?? null;
    out.problem('relay claim', 'CONFLICT', `${deviceLabel(result.head.holder, known)} claimed session ${sessionId} first (epoch ${result.head.epoch}).`, { holder: result.head.holder, holderName, epoch: result.head.epoch });
    return HANDOFF_EXIT_CODE.conflict;
  } catch (error) {
    return relayProblem(out, 'relay claim', error);
  } finally {
    await relay.close();
  }
}
