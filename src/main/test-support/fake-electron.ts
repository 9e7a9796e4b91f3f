/**
 * A thin stand-in for the `electron` module, for main-process and preload contract tests (in the
 * manner of Electron Fiddle's tests/mocks). The Electron runtime cannot run on these machines, so
 * the objects below record every call the real src/main code makes and let a test emit the events
 * Electron would. Tests hook it with `vi.mock('electron', () => import('./test-support/fake-electron.js'))`
 * and call `resetFakeElectron()` before each test. Never imported by production code.
 */
import { EventEmitter } from 'node:events';

/** What a test can steer and read back; reset before each test. */
export interface FakeState {
  /** What `app.requestSingleInstanceLock()` answers. */
  lockGranted: boolean;
  calls: { method: string; args: unknown[] }[];
  /** The button index `dialog.showMessageBox` resolves with (next answers first, then `defaultResponse`). */
  dialogResponses: number[];
  defaultDialogResponse: number;
  userData: string;
  /** Runs when a message box opens, before it answers (e.g. the person stops another host first). */
  onMessageBox: (() => Promise<void> | void) | null;
}

export const fakeState: FakeState = { lockGranted: true, calls: [], dialogResponses: [], defaultDialogResponse: 0, userData: '/nonexistent', onMessageBox: null };

function record(method: string, args: unknown[]): void {
  fakeState.calls.push({ method, args });
}

/** The recorded calls of one method, e.g. `callsOf('app.quit')`. */
export function callsOf(method: string): unknown[][] {
  return fakeState.calls.filter((c) => c.method === method).map((c) => c.args);
}

/** An Electron-like event whose preventDefault is observable. */
export function fakeEvent(extra: Record<string, unknown> = {}): { defaultPrevented: boolean; preventDefault(): void } & Record<string, unknown> {
  const event = {
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true;
    },
    ...extra,
  };
  return event;
}

type PermissionRequestHandler = (contents: unknown, permission: string, callback: (granted: boolean) => void, details?: unknown) => void;
type PermissionCheckHandler = (contents: unknown, permission: string) => boolean;

export class FakeSession {
  permissionRequestHandler: PermissionRequestHandler | null = null;
  permissionCheckHandler: PermissionCheckHandler | null = null;
  setPermissionRequestHandler(handler: PermissionRequestHandler | null): void {
    record('session.setPermissionRequestHandler', [handler]);
    this.permissionRequestHandler = handler;
  }
  setPermissionCheckHandler(handler: PermissionCheckHandler | null): void {
    record('session.setPermissionCheckHandler', [handler]);
    this.permissionCheckHandler = handler;
  }
  /** Asks the installed handler as Chromium would; resolves with its answer. */
  requestPermission(contents: unknown, permission: string): Promise<boolean> {
    return new Promise((resolve) => {
      if (!this.permissionRequestHandler) return resolve(true); // Electron's default grants
      this.permissionRequestHandler(contents, permission, resolve);
    });
  }
}

let nextContentsId = 1;
const allContents: FakeWebContents[] = [];

type WindowOpenHandler = (details: { url: string; frameName?: string; disposition?: string }) => { action: 'allow' | 'deny' };

export class FakeWebContents extends EventEmitter {
  readonly id = nextContentsId++;
  readonly session: FakeSession;
  url = '';
  windowOpenHandler: WindowOpenHandler | null = null;
  readonly sent: { channel: string; args: unknown[] }[] = [];
  destroyed = false;
  constructor(session: FakeSession) {
    super();
    this.session = session;
    allContents.push(this);
  }
  setWindowOpenHandler(handler: WindowOpenHandler): void {
    this.windowOpenHandler = handler;
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  getURL(): string {
    return this.url;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  /** Emits will-navigate (or another navigation event) and tells whether it was prevented. */
  tryNavigate(url: string, eventName = 'will-navigate'): boolean {
    const event = fakeEvent({ url });
    this.emit(eventName, event, url);
    return event.defaultPrevented;
  }
}

export const webContents = {
  getAllWebContents: (): FakeWebContents[] => allContents.filter((c) => !c.destroyed),
  /** Simulates a webContents Electron creates on its own (a webview, a devtools page): fires web-contents-created. */
  createForTest(): FakeWebContents {
    const contents = new FakeWebContents(session.defaultSession);
    app.emit('web-contents-created', fakeEvent(), contents);
    return contents;
  },
};

let windows: FakeBrowserWindow[] = [];

export class FakeBrowserWindow extends EventEmitter {
  readonly options: Record<string, unknown>;
  readonly webContents: FakeWebContents;
  minimized = false;
  focused = false;
  shown = false;
  destroyed = false;
  bounds: { x: number; y: number; width: number; height: number };
  constructor(options: Record<string, unknown> = {}) {
    super();
    record('BrowserWindow.new', [options]);
    this.options = options;
    this.bounds = { x: Number(options.x ?? 0), y: Number(options.y ?? 0), width: Number(options.width ?? 800), height: Number(options.height ?? 600) };
    this.webContents = new FakeWebContents(session.defaultSession);
    windows.push(this);
    app.emit('web-contents-created', fakeEvent(), this.webContents);
  }
  static getAllWindows(): FakeBrowserWindow[] {
    return windows.filter((w) => !w.destroyed);
  }
  static getFocusedWindow(): FakeBrowserWindow | null {
    return windows.find((w) => w.focused && !w.destroyed) ?? null;
  }
  loadURL(url: string): Promise<void> {
    record('BrowserWindow.loadURL', [url]);
    this.webContents.url = url;
    return Promise.resolve();
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  restore(): void {
    record('BrowserWindow.restore', []);
    this.minimized = false;
  }
  focus(): void {
    record('BrowserWindow.focus', []);
    this.focused = true;
  }
  show(): void {
    this.shown = true;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  getBounds() {
    return { ...this.bounds };
  }
  getNormalBounds() {
    return { ...this.bounds };
  }
  maximized = false;
  isMaximized(): boolean {
    return this.maximized;
  }
  maximize(): void {
    record('BrowserWindow.maximize', []);
    this.maximized = true;
  }
  close(): void {
    this.emit('close', fakeEvent());
    this.destroyed = true;
    this.webContents.destroyed = true;
    this.emit('closed');
  }
  /** What the page's finished load looks like to the main process. */
  finishLoad(): void {
    this.webContents.emit('did-finish-load');
  }
}
export const BrowserWindow = FakeBrowserWindow;

let readyResolve: () => void = () => undefined;
let readyPromise: Promise<void> = new Promise((r) => (readyResolve = r));

class FakeApp extends EventEmitter {
  ready = false;
  isPackaged = false;
  badgeCount = 0;
  requestSingleInstanceLock(): boolean {
    record('app.requestSingleInstanceLock', []);
    return fakeState.lockGranted;
  }
  quit(): void {
    record('app.quit', []);
    // Electron fires before-quit then will-quit; a listener may prevent it (and quit again later).
    const before = fakeEvent();
    this.emit('before-quit', before);
    if (before.defaultPrevented) return;
    const willQuit = fakeEvent();
    this.emit('will-quit', willQuit);
    if (!willQuit.defaultPrevented) this.emit('quit', fakeEvent(), 0);
  }
  exit(code = 0): void {
    record('app.exit', [code]);
  }
  whenReady(): Promise<void> {
    return readyPromise;
  }
  isReady(): boolean {
    return this.ready;
  }
  setAsDefaultProtocolClient(...args: unknown[]): boolean {
    record('app.setAsDefaultProtocolClient', args);
    return true;
  }
  setBadgeCount(count: number): boolean {
    record('app.setBadgeCount', [count]);
    this.badgeCount = count;
    return true;
  }
  getPath(name: string): string {
    if (name === 'userData') return fakeState.userData;
    return `/fake/${name}`;
  }
  getVersion(): string {
    return '0.0.0-test';
  }
  getName(): string {
    return 'Baton';
  }
  focus(): void {
    record('app.focus', []);
  }
  /** The test's `ready`: resolves whenReady() and emits the event. */
  becomeReady(): void {
    this.ready = true;
    readyResolve();
    this.emit('ready', fakeEvent());
  }
}
export const app = new FakeApp();

export const protocol = {
  handlers: new Map<string, (request: Request) => Promise<Response> | Response>(),
  registerSchemesAsPrivileged(schemes: unknown): void {
    record('protocol.registerSchemesAsPrivileged', [schemes]);
  },
  handle(scheme: string, handler: (request: Request) => Promise<Response> | Response): void {
    record('protocol.handle', [scheme]);
    protocol.handlers.set(scheme, handler);
  },
};

type InvokeHandler = (event: unknown, ...args: unknown[]) => unknown;
export const ipcMain = Object.assign(new EventEmitter(), {
  handlers: new Map<string, InvokeHandler>(),
  handle(channel: string, handler: InvokeHandler): void {
    if (ipcMain.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    ipcMain.handlers.set(channel, handler);
  },
  removeHandler(channel: string): void {
    ipcMain.handlers.delete(channel);
  },
  /** What ipcRenderer.invoke would do, with the sender and frame the test chooses. */
  async invokeAs(sender: { sender: FakeWebContents; senderFrame: { url: string; parent: unknown } | null }, channel: string, ...args: unknown[]): Promise<unknown> {
    const handler = ipcMain.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return handler(sender, ...args);
  },
});

export const session = { defaultSession: new FakeSession() };

export const shell = {
  openExternal(url: string): Promise<void> {
    record('shell.openExternal', [url]);
    return Promise.resolve();
  },
  openPath(path: string): Promise<string> {
    record('shell.openPath', [path]);
    return Promise.resolve('');
  },
};

export const dialog = {
  showErrorBox(title: string, content: string): void {
    record('dialog.showErrorBox', [title, content]);
  },
  async showMessageBox(...args: unknown[]): Promise<{ response: number; checkboxChecked: boolean }> {
    record('dialog.showMessageBox', args);
    const response = fakeState.dialogResponses.shift() ?? fakeState.defaultDialogResponse;
    await fakeState.onMessageBox?.();
    return { response, checkboxChecked: false };
  },
};

export class Notification extends EventEmitter {
  static supported = true;
  static instances: Notification[] = [];
  readonly options: Record<string, unknown>;
  shown = false;
  constructor(options: Record<string, unknown> = {}) {
    super();
    this.options = options;
    Notification.instances.push(this);
  }
  static isSupported(): boolean {
    return Notification.supported;
  }
  show(): void {
    this.shown = true;
    record('Notification.show', [this.options]);
  }
  close(): void {
    this.emit('close', fakeEvent());
  }
  /** The person clicks it. */
  click(): void {
    this.emit('click', fakeEvent());
  }
}

export const Menu = {
  applicationMenu: null as null | { template: unknown[] },
  buildFromTemplate(template: unknown[]): { template: unknown[] } {
    record('Menu.buildFromTemplate', [template]);
    return { template };
  },
  setApplicationMenu(menu: { template: unknown[] } | null): void {
    record('Menu.setApplicationMenu', [menu]);
    Menu.applicationMenu = menu;
  },
};

// The preload's side.
export const contextBridge = {
  exposed: new Map<string, unknown>(),
  exposeInMainWorld(key: string, api: unknown): void {
    record('contextBridge.exposeInMainWorld', [key, api]);
    contextBridge.exposed.set(key, api);
  },
};

export const ipcRenderer = Object.assign(new EventEmitter(), {
  invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    record('ipcRenderer.invoke', [channel, ...args]);
    return Promise.resolve({ ok: true, value: { channel, args } });
  },
});

/** Everything back to a fresh process: no windows, no handlers, no listeners, app not ready. */
export function resetFakeElectron(): void {
  fakeState.lockGranted = true;
  fakeState.calls = [];
  fakeState.dialogResponses = [];
  fakeState.defaultDialogResponse = 0;
  fakeState.userData = '/nonexistent';
  fakeState.onMessageBox = null;
  windows = [];
  allContents.length = 0;
  app.removeAllListeners();
  app.ready = false;
  app.badgeCount = 0;
  readyPromise = new Promise((r) => (readyResolve = r));
  protocol.handlers.clear();
  ipcMain.handlers.clear();
  ipcMain.removeAllListeners();
  session.defaultSession = new FakeSession();
  Notification.instances = [];
  Notification.supported = true;
  Menu.applicationMenu = null;
  contextBridge.exposed.clear();
  ipcRenderer.removeAllListeners();
}

export default { app, BrowserWindow, protocol, ipcMain, session, shell, dialog, Notification, Menu, webContents, contextBridge, ipcRenderer };
