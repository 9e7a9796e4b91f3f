import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC_EVENT, IPC_INVOKE } from '../shared/ipc-channels.js';

/**
 * The one bridge between the sandboxed renderer and the main process: `window.baton` with
 * `invoke(channel, payload)` and `on(event, listener)`. No Electron or Node object crosses it;
 * the main process validates every payload against the UI contract. Its type is the renderer's
 * declaration (src/renderer/src/api/baton-bridge.d.ts); src/preload/index.test.ts holds them equal.
 */
export const batonBridge = {
  invoke: (channel: string, payload: unknown): Promise<unknown> => ipcRenderer.invoke(IPC_INVOKE, String(channel), payload),
  on: (event: string, listener: (payload: unknown) => void): (() => void) => {
    const wrapped = (_e: IpcRendererEvent, name: unknown, payload: unknown) => {
      if (name === event) listener(payload);
    };
    ipcRenderer.on(IPC_EVENT, wrapped);
    return () => ipcRenderer.off(IPC_EVENT, wrapped);
  },
};

contextBridge.exposeInMainWorld('baton', batonBridge);
