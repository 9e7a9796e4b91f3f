import type { Command } from 'commander';
import { isValidId } from '../../shared/ids.js';
import { openCliStore } from '../context.js';
import { createOutput, EXIT, type Output } from '../output.js';
import { relayProblem } from './relay.js';

/**
 * `baton archive <id>` / `baton unarchive <id>`: the store's local archive; with --relay, also a
 * cold copy sealed for this device in the relay's Object Store and an `archived` event for other systems.
 */
export const registerArchive = (program: Command): void => register(program, 'archive');
export const registerUnarchive = (program: Command): void => register(program, 'unarchive');

function register(program: Command, name: 'archive' | 'unarchive'): void {
  {
    program
      .command(`${name} <session-id...>`)
      .description(name === 'archive' ? 'archive a session locally (--relay: also an encrypted cold copy on the relay)' : 'bring an archived session back (--relay: from the cold copy on the relay)')
      .option('--relay', 'use the configured relay\'s Object Store')
      .option('--json', 'print one versioned JSON object')
      .action(async (sessionIds: string[], flags: { relay?: boolean; json?: boolean }) => {
        // Several ids: each is archived on its own; the worst exit code wins.
        let code: number = EXIT.ok;
        for (const sessionId of sessionIds) code = Math.max(code, await run(name, createOutput(!!flags.json), sessionId, !!flags.relay));
        process.exitCode = code;
      });
  }
}

async function run(command: 'archive' | 'unarchive', out: Output, sessionId: string, useRelay: boolean): Promise<number> {
  if (!isValidId(sessionId)) {
    out.problem(command, 'BAD_ARGUMENT', `"${sessionId}" is not a valid session id`);
    return EXIT.usage;
  }
  const { dataDir, store } = await openCliStore();
  try {
    const archive = await import('../../core/relay/cold-archive.js');
    if (!useRelay) {
      if (command === 'archive') {
        await store.archive(sessionId);
        out.result(command, { sessionId, relay: false }, () => `Session ${sessionId} is archived locally (baton unarchive ${sessionId} brings it back).`);
      } else {
        const state = await archive.unarchiveLocally(store, sessionId);
        out.result(command, { sessionId, relay: false, state }, () => (state === 'live' ? `Session ${sessionId} was not archived.` : `Session ${sessionId} is back in the session list.`));
      }
      return EXIT.ok;
    }
    const { openDeviceRelay } = await import('../../core/relay/open-relay.js');
    const { relay, identity } = await openDeviceRelay(dataDir);
    try {
      if (command === 'archive') {
        const event = await archive.archiveToRelay(relay, identity, store, sessionId);
        out.result(command, { sessionId, relay: true, event }, () => `Session ${sessionId} is archived: ${event.bytes} encrypted bytes in the relay's Object Store as ${event.object}, and locally.`);
      } else {
        const back = await archive.unarchiveFromRelay(relay, identity, store, sessionId);
        out.result(command, { sessionId, relay: true, ...back }, () => `Session ${sessionId} is back${back.landed ? ' (restored from the relay)' : ''}.`);
      }
      return EXIT.ok;
    } finally {
      await relay.close();
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'NOT_FOUND') {
      out.problem(command, 'NOT_FOUND', (error as Error).message);
      return EXIT.failure;
    }
    return relayProblem(out, command, error);
  } finally {
    await store.close();
  }
}
