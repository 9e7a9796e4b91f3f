/** One rehydration step in words, for the result note and the session history. */
export function describeStep(step: string, path: string | undefined, targetDir: string | undefined): string {
  if (step === 'take-file') return `took the handed-off version of ${path ?? 'a file'}`;
  if (step === 'worktree-add') return `created a worktree at ${targetDir ?? 'the chosen directory'}`;
  if (step === 'patch-apply') return `applied the handed-off changes${targetDir !== undefined ? ` in ${targetDir}` : ''}`;
  return step;
}
