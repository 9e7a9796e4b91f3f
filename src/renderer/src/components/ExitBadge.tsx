/** A command's exit code: green for 0, red otherwise, grey when the command never exited (killed, timed out). */
export function ExitBadge({ code }: { code: number | null | undefined }) {
  if (code === undefined) return null;
  if (code === null) {
    return (
      <span className="badge badge-exit" title="The command did not exit normally">
        no exit code
      </span>
    );
  }
  return (
    <span className={`badge badge-exit ${code === 0 ? 'badge-ok' : 'badge-fail'}`} title={`Exit code ${code}`}>
      exit {code}
    </span>
  );
}
