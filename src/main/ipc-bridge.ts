import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import type { HostServices } from '../core/host/host-services.js';
import { ErrorCode } from '../shared/error-codes.js';
import { IPC_EVENT, IPC_INVOKE } from '../shared/ipc-channels.js';
import { isClientLocalChannel, type ClientLocalChannel } from '../shared/preferences.js';

type Outcome = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };
/** The channels the desktop shell answers itself (preferences), after the same sender check. */
export type LocalHandlers = { [C in ClientLocalChannel]: (payload: unknown) => Outcome };


/**
 * Binds the UI contract to Electron IPC. A request is served only when it comes from the main
 * frame of one of our windows showing our bundled renderer (the sender check VS Code does).
 */
export function bindUiContract(services: Pick<HostServices, 'dispatch' | 'onUiEvent'>, windows: () => BrowserWindow[], rendererOrigin: string, local?: LocalHandlers): () => void {
  const trusted = (event: IpcMainInvokeEvent) => {
    const frame = event.senderFrame;
    return windows().some((w) => w.webContents.id === event.sender.id) && frame !== null && frame.parent === null && frame.url.startsWith(`${rendererOrigin}/`);
  };

  ipcMain.handle(IPC_INVOKE, async (event, channel: unknown, payload: unknown) => {
    if (!trusted(event)) return { ok: false, error: { code: ErrorCode.UNAUTHENTICATED, message: 'request from an untrusted frame' } };
    if (local && isClientLocalChannel(channel)) return local[channel](payload);
    return services.dispatch(String(channel), payload);
  });
  const unsubscribe = services.onUiEvent((event, payload) => {
    for (const window of windows()) window.webContents.send(IPC_EVENT, event, payload);
  });
  return () => {
    ipcMain.removeHandler(IPC_INVOKE);
    unsubscribe();
  };
}
