import { openEarlyConnection } from './early-connection';

/**
 * main.tsx's first import, evaluated before React, zod and the UI contract (~100 ms of a new
 * page's main thread): the host's socket is opened while they evaluate (issue 15). A module of its
 * own so that nothing else runs before it; its only effect is this call.
 */
openEarlyConnection(window);
