import { useState } from 'react';
import { toApiError } from '../../api';
import { useApi } from '../../hooks/api-context';

/** The bulk action on a directory group: archives every Baton session in it (candidates are not Baton's to archive). */
export function ArchiveGroupButton({ cwd, ids }: { cwd: string; ids: readonly string[] }) {
  const api = useApi();
  const [state, setState] = useState<'idle' | 'busy' | { error: string }>('idle');
  if (ids.length === 0) return null;
  return (
    <button
      type="button"
      className="button-link group-action"
      data-testid="archive-group"
      title={typeof state === 'object' ? state.error : `Archive the ${ids.length} Baton session${ids.length === 1 ? '' : 's'} of ${cwd}`}
      aria-label={`Archive ${ids.length} session${ids.length === 1 ? '' : 's'} of ${cwd}`}
      disabled={state === 'busy'}
      onClick={() => {
        setState('busy');
        api.invoke('sessions:archive', { ids: [...ids] }).then(
          () => setState('idle'),
          (e: unknown) => setState({ error: toApiError(e, 'sessions:archive').message }),
        );
      }}
    >
      Archive all
    </button>
  );
}
