import type { BrowserWindow } from 'electron';
import { salvagePreferences } from '../shared/preferences.js';
import type { PreferencesStore } from './preferences-store.js';

/** Saves the window's normal (un-maximized) bounds when it closes, so the next start opens it there. */
export function rememberWindowBounds(window: BrowserWindow, prefs: PreferencesStore): void {
  window.on('close', () => {
    const bounds = window.getNormalBounds();
    // Bounds outside the limits (a window squeezed by the OS) are not worth restoring.
    const windowBounds = salvagePreferences({ windowBounds: { ...bounds, maximized: window.isMaximized() } }).windowBounds;
    prefs.set({ windowBounds });
  });
}
