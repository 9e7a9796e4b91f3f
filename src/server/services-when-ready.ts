import type { UiHostServices } from './browser-host.js';

/**
 * The browser host's services while they are still starting: `baton serve` listens and prints its
 * address first, and starts the store, the receiver and the candidates' index read behind it, so
 * a browser loads the page in the meantime (issue 15). Requests wait for the start; a start that
 * fails resolves each waiting request with its code here, but `baton serve` closes the page's
 * server at once (browser-host's close terminates the pages before those answers are sent), reports
 * the failure and exits: the pages are disconnected, and nothing waits forever.
 */
export function servicesWhenReady(token: Buffer, starting: Promise<UiHostServices>): UiHostServices {
  // The failure is answered to each request below; this handler only keeps it from being unhandled.
  starting.catch(() => undefined);
  return {
    token,
    async dispatch(channel, payload) {
      let services: UiHostServices;
      try {
        services = await starting;
      } catch (error) {
        return { ok: false, error: { code: (error as { code?: string }).code ?? 'INTERNAL', message: `the Baton host did not start: ${(error as Error).message}` } };
      }
      return services.dispatch(channel, payload);
    },
    onUiEvent(listener) {
      let unsubscribe: (() => void) | undefined;
      let gone = false;
      void starting.then(
        (services) => {
          if (!gone) unsubscribe = services.onUiEvent(listener);
        },
        () => undefined,
      );
      return () => {
        gone = true;
        unsubscribe?.();
      };
    },
  };
}
