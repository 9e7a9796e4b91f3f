import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import type { HostServices } from '../core/host/host-services.js';
import { ErrorCode } from '../shared/error-codes.js';
import { IPC_EVENT, IPC_INVOKE } from '../shared/ipc-channels.js';


/**
 * Binds the UI contract to Electron IPC. A request is served only when it comes from the main
 * frame of one of our windows showing our bundled renderer (the sender check VS Code does).
 */
export function bindUiContract(services: HostServices, windows: () => BrowserWindow[], rendererOrigin: string): () => void {
  const trusted = (event: IpcMainInvokeEvent) => {
    const frame = event.senderFrame;
    return windows().some((w) => w.webContents.id === event.sender.id) && frame !== null && frame.parent === null && frame.url.startsWith(`${rendererOrigin}/`);
  };

  ipcMain.handle(IPC_INVOKE, async (event, channel: unknown, payload: unknown) => {
    if (!trusted(event)) return { ok: false, error: { code: ErrorCode.UNAUTHENTICATED, message: 'request from an untrusted frame' } };
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
