import type { UiRequest, UiResponse } from '../../shared/ui-contract.js';
import { unarchiveLocally } from '../relay/cold-archive.js';
import { deleteSessions, planDelete } from '../lifecycle/delete-sessions.js';
import { retentionStats } from '../lifecycle/disk-usage.js';
import { planPurge, purge } from '../lifecycle/purge.js';
import type { SessionStore } from '../store/types.js';

type Handler<C extends LifecycleChannel> = (payload: UiRequest<C>) => Promise<UiResponse<C>>;
type LifecycleChannel = 'sessions:archive' | 'sessions:unarchive' | 'sessions:delete-plan' | 'sessions:delete' | 'data:purge-plan' | 'data:purge' | 'retention:get';

/**
 * The UI's archive, delete and purge: the same core functions as `baton archive`, `baton delete`
 * and `baton purge`, so the UI and the CLI cannot drift. `onChanged` tells every window to reload.
 */
export function createLifecycleUiHandlers(options: { store: SessionStore; dataDir: string; onChanged: (id: string, reason: string) => void }): { [C in LifecycleChannel]: Handler<C> } {
  const { store, dataDir, onChanged } = options;
  return {
    'sessions:archive': async ({ ids }) => {
      for (const id of ids) {
        await store.archive(id);
        onChanged(id, 'archived');
      }
      return { archived: ids };
    },
    'sessions:unarchive': async ({ ids }) => {
      for (const id of ids) {
        await unarchiveLocally(store, id);
        onChanged(id, 'unarchived');
      }
      return { unarchived: ids };
    },
    'sessions:delete-plan': async ({ ids }) => Promise.all(ids.map((id) => planDelete(store, dataDir, id))),
    'sessions:delete': async ({ ids, force }) => {
      const outcome = await deleteSessions(store, dataDir, ids, { force: !!force });
      for (const plan of outcome.deleted) onChanged(plan.sessionId, 'deleted');
      return outcome;
    },
    'data:purge-plan': async () => planPurge(store, dataDir),
    'data:purge': async () => {
      const plan = await planPurge(store, dataDir);
      const { removed } = await purge(store, plan);
      onChanged('*', 'purged');
      return { removed: removed.length, bytes: plan.bytes };
    },
    'retention:get': async () => retentionStats(store),
  };
}
