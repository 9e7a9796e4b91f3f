// First, before React, zod and the UI contract evaluate: it opens the host's socket, so the socket's
// handshake overlaps their evaluation and the first screen's requests go out when it opens.
import './api/open-early-connection';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApi } from './api';
import { takeEarlyConnection } from './api/early-connection';
import { App } from './components/App';
import { askFirstScreen } from './components/ask-first-screen';
import { loadPreferences } from './features/preferences/apply-preferences';
import { LockGate } from './features/unlock/LockGate';
import { prepareListDates } from './model/relative-time';
import './styles/index.css';

const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element');

// One API for the page's lifetime; the transport is chosen once (Electron bridge or WebSocket).
const api = createApi({ early: takeEarlyConnection() });
window.addEventListener('pagehide', (event) => {
  if (!event.persisted) api.close();
});

// The list's rows, asked now rather than by its hooks after the first render.
askFirstScreen(api);

// Client-local preferences (sidebar width, theme): electron-store on the desktop, localStorage in a browser.
void loadPreferences(api, document.documentElement);

createRoot(container).render(
  <StrictMode>
    <LockGate api={api}>
      <App api={api} />
    </LockGate>
  </StrictMode>,
);

// While the page waits for the host's first answer: an idle callback never delays that answer's task.
requestIdleCallback(prepareListDates);
