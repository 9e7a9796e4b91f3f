import { dialog } from 'electron';
import type { ForwardResult } from './forward.js';

/**
 * Another Baton host (usually `baton serve`) owns this data directory's endpoint, so this app
 * cannot receive handoffs. It used to forward its links and vanish; now the person is told where
 * their link went and can stop the other host and take over, or leave it running.
 */
export async function showOtherHostNotice(dataDir: string, forwarded: ForwardResult): Promise<'retry' | 'quit'> {
  const links =
    forwarded.opened.length + forwarded.failed.length === 0
      ? ''
      : forwarded.opened.length > 0
        ? `Your link was passed to it and opened there (${forwarded.opened.join(', ')}).\n\n`
        : `Your link was passed to it, but it could not open ${forwarded.failed.join(', ')}.\n\n`;
  const reach = forwarded.reached ? `It answers at ${forwarded.address}.` : `It holds ${forwarded.address} but did not answer.`;
  const { response } = await dialog.showMessageBox({
    type: 'info',
    message: 'Another Baton is already receiving handoffs',
    detail:
      `${links}Another Baton host — usually \`baton serve\` in a terminal — owns the endpoint for ${dataDir}. ${reach}\n\n` +
      'To use this window instead, stop the other host (Ctrl+C in the terminal running `baton serve`), then choose Try again. ' +
      'Or keep using the other host and quit.',
    buttons: ['Quit', 'Try again'],
    defaultId: 0,
    cancelId: 0,
  });
  return response === 1 ? 'retry' : 'quit';
}
