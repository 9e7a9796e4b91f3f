import type { Preferences } from '../../../../shared/preferences';
import type { BatonApi } from '../../api/types';

/**
 * Puts the client-local preferences on the page: the sidebar width (the layout's --sidebar-width)
 * and the theme override (`data-theme` and `color-scheme`; "system" follows the OS).
 */
export function applyPreferences(root: HTMLElement, prefs: Preferences): void {
  root.style.setProperty('--sidebar-width', `${prefs.sidebarWidth}px`);
  root.dataset.theme = prefs.theme;
  root.style.colorScheme = prefs.theme === 'system' ? 'light dark' : prefs.theme;
}

/** Reads them once at start-up through the UI contract (electron-store or localStorage, by host). */
export async function loadPreferences(api: Pick<BatonApi, 'invoke'>, root: HTMLElement): Promise<Preferences | null> {
  try {
    const prefs = await api.invoke('prefs:get', {});
    applyPreferences(root, prefs);
    return prefs;
  } catch (error) {
    // The stylesheet's defaults stay; preferences are never worth failing the window for.
    console.warn(`Baton: preferences were not loaded: ${(error as Error).message}`);
    return null;
  }
}
