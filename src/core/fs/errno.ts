/** The errno code of a Node system error (ENOENT, ENOSPC …), if any. */
export function errnoOf(error: unknown): string | undefined {
  return error !== null && typeof error === 'object' && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
