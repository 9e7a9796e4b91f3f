import { protocol } from 'electron';
import { readRendererFile } from '../core/static-files.js';
import { RENDERER_CSP } from '../shared/csp.js';

/** The renderer is served from its own scheme (VS Code's rule), never from file://. */
export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://baton`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/** Must run before the app is ready: a standard, secure scheme so workers and fetch behave as on https. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

/** Serves out/renderer under app://baton/ with the CSP as a header; anything outside the folder is 404. */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== 'baton') return new Response('Not found', { status: 404 });
    const file = await readRendererFile(rendererDir, url.pathname);
    if (!file.found) return new Response('Not found', { status: 404 });
    return new Response(new Uint8Array(file.body), {
      headers: { 'Content-Type': file.contentType, 'Content-Security-Policy': RENDERER_CSP, 'X-Content-Type-Options': 'nosniff' },
    });
  });
}
