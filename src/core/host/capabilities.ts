/** What each host can show; an offer that needs more is answered `needs-capabilities`. */
export const DESKTOP_CAPABILITIES = ['conversation', 'diff-viewer', 'approval-ui', 'task-panel', 'file-watcher'] as const;
/** The browser host renders the same UI and runs the same watcher (src/core/watch) in its process. */
export const BROWSER_HOST_CAPABILITIES = ['conversation', 'diff-viewer', 'approval-ui', 'task-panel', 'file-watcher'] as const;
