/**
 * "Open in VS Code" as a link: `vscode://file/<absolute path>:<line>`, which VS Code registers on
 * every platform. Each path segment is percent-encoded (spaces, #, ?), the slashes kept.
 */
export function vscodeFileLink(absolutePath: string, line = 1): string {
  const path = absolutePath.replace(/\\/g, '/');
  const encoded = path
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
  return `vscode://file${encoded.startsWith('/') ? '' : '/'}${encoded}:${Math.max(1, Math.floor(line))}`;
}
