// Packaging-time only: the .desktop entry for a Linux build, from electron-builder.yml and the
// template in assets/ (electron-builder writes its own only when it packs AppImage/deb, which
// needs downloads). Never imported by the app bundle.
import type { Configuration } from 'electron-builder';
import { BATON_MIME_TYPE, renderDesktopEntry, type DesktopEntryResult } from '../../core/desktop-entry.js';

/** The fields electron-builder itself would use: linux.desktop.entry, protocols, executableArgs. */
export function desktopEntryFromBuilder(config: Configuration, template: string, executable?: string): DesktopEntryResult {
  const linux = config.linux ?? {};
  const entry = ((linux.desktop as { entry?: Record<string, string> } | null | undefined)?.entry ?? {}) as Record<string, string>;
  const protocols = [config.protocols ?? []].flat();
  const schemes = protocols.flatMap((p) => p.schemes);
  const mimeTypes = [...new Set([...schemes.map((s) => `x-scheme-handler/${s}`), ...(entry.MimeType ?? '').split(';').filter(Boolean)])];
  const program = executable ?? linux.executableName ?? config.executableName ?? 'baton';
  const name = entry.Name ?? config.productName;
  if (!name) return { ok: false, error: 'electron-builder.yml names no productName nor linux.desktop.entry.Name' };
  // The protocols list is what macOS and Windows register from: it must name baton too.
  if (!schemes.some((s) => `x-scheme-handler/${s}` === BATON_MIME_TYPE)) return { ok: false, error: `electron-builder.yml declares no baton protocol (schemes: ${schemes.join(', ') || 'none'})` };
  return renderDesktopEntry(template, {
    name,
    comment: entry.Comment ?? config.copyright ?? name,
    categories: entry.Categories ?? `${linux.category ?? 'Development'};`,
    exec: [program, ...(linux.executableArgs ?? [])],
    mimeTypes,
  });
}
