const UNITS = ['bytes', 'KB', 'MB', 'GB'] as const;
/** Hashes are shown this long: enough to tell two apart by eye, the full one is in the title. */
export const SHORT_HASH_LENGTH = 10;

/** "812 bytes", "14.2 KB", "3.0 MB" (1 KB = 1024 bytes, like file managers on Linux and macOS). */
export function formatBytes(size: number): string {
  let value = size;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  if (unit === 0) return `${size} ${size === 1 ? 'byte' : 'bytes'}`;
  return `${value.toFixed(1)} ${UNITS[unit]}`;
}

/** The first characters of a sha256, or a word when there is no file. */
export function shortHash(sha256: string | null | undefined, missing = 'missing'): string {
  return sha256 === null || sha256 === undefined ? missing : sha256.slice(0, SHORT_HASH_LENGTH);
}
