import { z } from 'zod';

/**
 * zod's parsers without its JIT in the page. The page's CSP has no 'unsafe-eval', so zod's probe
 * for it (`new Function("")` at the first object parse) always failed, and Chromium raised a
 * `securitypolicyviolation` for it at every page load (two per reload in the trace, issue 15): the
 * parsers were interpreted anyway, now without the probe. zod reads the setting as each schema is
 * built, so this module runs before the contract's (create-api.ts and ws-transport.ts import it first).
 */
z.config({ jitless: true });
