import { deviceLabel, readPeers } from '../../core/crypto/peers.js';
import { claimHead } from '../../core/relay/heads.js';
import { isValidId } from '../../shared/ids.js';
import { HANDOFF_EXIT_CODE } from '../../core/handoff/outcome.js';
import { EXIT, type Output } from '../output.js';
import { withDeviceRelay } from './relay.js';

export async function runClaim(out: Output, sessionId: string): Promise<number> {
  if (!isValidId(sessionId)) {
    out.problem('relay claim', 'BAD_ARGUMENT', `"${sessionId}" is not a valid session id`);
    return EXIT.usage;
  }
  return withDeviceRelay(out, 'relay claim', async ({ relay, identity }, dataDir) => {
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
  });
}
