/** Paths longer than this are cut to their last segments in the list (the full path is in a title). */
export const SHORT_PATH_MAX_CHARS = 36;
/** Segments kept at the end of a cut path: enough to tell `acme/api` from `acme/web`. */
export const SHORT_PATH_TAIL_SEGMENTS = 2;

// Home directories on Linux, macOS and Windows; the renderer does not know the user's home, but
// these shapes are unambiguous enough to fold into "~".
const HOME_PATTERNS = [/^\/home\/[^/]+(?=\/|$)/, /^\/Users\/[^/]+(?=\/|$)/, /^\/root(?=\/|$)/, /^[A-Za-z]:\\Users\\[^\\]+(?=\\|$)/];

/**
 * A working directory short enough for a list header: the home directory becomes `~`, and a path
 * still too long keeps its last segments behind `…`.
 */
export function shortenPath(path: string, maxChars = SHORT_PATH_MAX_CHARS): string {
  let short = path;
  for (const pattern of HOME_PATTERNS) {
    if (pattern.test(short)) {
      short = short.replace(pattern, '~');
      break;
    }
  }
  if (short.length <= maxChars) return short;
  const separator = short.includes('\\') && !short.includes('/') ? '\\' : '/';
  const segments = short.split(separator).filter((segment) => segment.length > 0);
  if (segments.length <= SHORT_PATH_TAIL_SEGMENTS) return short;
  const tail = segments.slice(-SHORT_PATH_TAIL_SEGMENTS).join(separator);
  return `…${separator}${tail}`;
}
