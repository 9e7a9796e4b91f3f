/**
 * The sidebar's width, remembered across restarts. In localStorage for now, behind this one
 * module, so it can move to the desktop's preference store (electron-store, the `prefs` channel)
 * by changing only load and save.
 */
export const SIDEBAR_WIDTH_KEY = 'baton.sidebarWidth';
export const SIDEBAR_DEFAULT_PX = 360;
export const SIDEBAR_MIN_PX = 240;
export const SIDEBAR_MAX_PX = 640;
/** One arrow-key step of the resize handle. */
export const SIDEBAR_STEP_PX = 16;

export function clampSidebarWidth(px: number): number {
  if (!Number.isFinite(px)) return SIDEBAR_DEFAULT_PX;
  return Math.round(Math.min(SIDEBAR_MAX_PX, Math.max(SIDEBAR_MIN_PX, px)));
}

export function loadSidebarWidth(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): number {
  const raw = storage?.getItem(SIDEBAR_WIDTH_KEY);
  return raw === null || raw === undefined ? SIDEBAR_DEFAULT_PX : clampSidebarWidth(Number(raw));
}

export function saveSidebarWidth(px: number, storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage): void {
  try {
    storage?.setItem(SIDEBAR_WIDTH_KEY, String(clampSidebarWidth(px)));
  } catch {
    // Storage full or refused (private mode): the width is kept for this window only.
  }
}
