/**
 * The renderer's Content-Security-Policy, sent as a header by both hosts (browser-host.ts on HTTP,
 * app-protocol.ts on app://baton). The renderer's meta tag repeats it without frame-ancestors,
 * which only works as a header. Monaco needs its workers
 * from 'self' (blob: for older loaders) and inline styles; nothing else is allowed.
 */
export const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self' ws://127.0.0.1:* ws://localhost:*",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
