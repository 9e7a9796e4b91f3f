import { BATON_URL_MARKER, findBatonUrlInArgv, parseBatonUrl, type BatonLink } from '../shared/baton-url.js';

/** The flag the OS launchers put before a baton:// URL (electron-builder.yml `executableArgs`; `setAsDefaultProtocolClient` in index.ts). */
export const URL_MARKER_FLAG = BATON_URL_MARKER;

/**
 * Deep links can arrive before any window exists (macOS open-url fires before ready, Windows and
 * Linux pass them in argv). They are parsed at once and held until a window can act on them.
 */
export class DeepLinkQueue {
  private pending: BatonLink[] = [];
  private deliver: ((link: BatonLink) => void) | null = null;

  /** A raw URL from open-url; anything that does not parse is logged and ignored. */
  acceptUrl(raw: string): void {
    const link = parseBatonUrl(raw);
    if (link.kind === 'unknown') {
      console.warn(`[baton] ignored a link that is not a Baton link: ${link.reason}`);
      return;
    }
    this.push(link);
  }

  /** argv of a cold start or a second instance: only with the marker flag and exactly one URL. */
  acceptArgv(argv: readonly string[]): void {
    const raw = findBatonUrlInArgv([...argv], URL_MARKER_FLAG);
    if (raw) this.acceptUrl(raw);
  }

  /** Once a window is ready: deliver what waited, then everything that comes later. */
  onReady(deliver: (link: BatonLink) => void): void {
    this.deliver = deliver;
    const waiting = this.pending;
    this.pending = [];
    for (const link of waiting) deliver(link);
  }

  private push(link: BatonLink): void {
    if (this.deliver) this.deliver(link);
    else this.pending.push(link);
  }
}
