import { z } from 'zod';

/**
 * Imported first by a bundle that parses a handful of documents per process (`baton show`): zod's
 * JIT compiles a fast path (`new Function`) for each object schema on its first parse, which pays
 * off over thousands of parses; in `show`'s CPU profiles the one safeParse of session.json took
 * 11–17 ms with it and 2 ms without (bench/README.md, issue 20 sixth sitting). The setting is read
 * as each schema is built, so this module must run before any schema module does (show-main.ts
 * imports it first).
 */
z.config({ jitless: true });
