import { useCallback, useEffect, useState } from 'react';
import type { BatonApi } from '../../api';
import { useRemote } from '../../hooks/use-remote';

/** Alerts older than this are history (events.jsonl keeps them), not a banner. */
export const ALERT_RECENT_MS = 24 * 3_600_000;
const DISMISSED_KEY = 'baton.dismissedHandoffAlerts';

function readDismissed(): Set<string> {
  try {
    const raw = JSON.parse(localStorage.getItem(DISMISSED_KEY) ?? '[]') as unknown;
    return new Set(Array.isArray(raw) ? raw.map(String) : []);
  } catch {
    return new Set();
  }
}

/**
 * A handoff this host refused because the disk disagreed with its manifest (a summary, an anchor,
 * a tool output, a count or a hash): one banner per handoff until dismissed, live and after a
 * reload (the host reads them back from events.jsonl).
 */
export function HandoffAlerts({ api }: { api: BatonApi }) {
  const load = useCallback(() => api.invoke('alerts:list', {}), [api]);
  const alerts = useRemote('alerts:list', load);
  const [dismissed, setDismissed] = useState(readDismissed);
  useEffect(() => api.on('handoff:alert', () => alerts.reload()), [api, alerts.reload]);

  const now = Date.now();
  const shown = (alerts.value ?? []).filter((a) => !dismissed.has(a.handoffId) && now - Date.parse(a.at) < ALERT_RECENT_MS);
  if (shown.length === 0) return null;
  const dismiss = (handoffId: string) => {
    const next = new Set(dismissed).add(handoffId);
    setDismissed(next);
    try {
      localStorage.setItem(DISMISSED_KEY, JSON.stringify([...next]));
    } catch {
      // Storage full or denied: the banner stays dismissed for this window only.
    }
  };
  return (
    <div className="handoff-alerts" data-testid="handoff-alerts">
      {shown.map((alert) => (
        <div key={alert.handoffId} className="banner banner-error" role="alert" data-testid="handoff-alert" data-handoff-id={alert.handoffId}>
          <span>
            {alert.message} Nothing was taken over; the session stays with its sender.
          </span>
          <button type="button" className="button-link" onClick={() => dismiss(alert.handoffId)}>
            Dismiss
          </button>
        </div>
      ))}
    </div>
  );
}
