import { z } from 'zod';

/**
 * Imported first by a bundle that parses a handful of documents per process (`baton show`): zod's
 * JIT compiles a fast path (`new Function`) for each object schema on its first parse, which pays
 * off over thousands of parses and cost `show` ~4 ms of its start-up (a CPU profile: `compile`
 * under the one safeParse of session.json). The setting is read as each schema is built, so this
 * module must run before any schema module does (show-main.ts imports it first).
 */
z.config({ jitless: true });
