import { countText } from '../../../shared/count-text';

/**
 * One number format for the whole UI (issue: `100000 messages` next to `2,014 sessions`). Without
 * Intl (count-text.ts, as the CLI's picker): the page's first Intl object loads ICU's data, 20–40 ms
 * of a new page's first frame, and the list's first screen needs no other (issue 15).
 */
export const formatCount = countText;
