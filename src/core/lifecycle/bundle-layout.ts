/**
 * What a portable bundle holds, by entry name. The session's own files sit under session/ exactly as
 * the relay carries them (src/core/relay/session-bundle.ts), so landing reuses the same checks.
 */
export const BUNDLE_FORMAT = 'baton-session-bundle';
export const BUNDLE_FORMAT_VERSION = 1;
export const INFO_ENTRY = 'bundle.json';
export const MANIFEST_ENTRY = 'manifest.json';
export const SESSION_PREFIX = 'session/';
/** File name suggested for `baton export` without --out. */
export const bundleFileName = (sessionId: string): string => `baton-${sessionId}.baton`;

export interface BundleInfo {
  format: typeof BUNDLE_FORMAT;
  v: typeof BUNDLE_FORMAT_VERSION;
  sessionId: string;
  handoffId: string;
  exportedAt: string;
  messageCount: number;
}
