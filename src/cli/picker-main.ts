/**
 * The picker's first screen from a running host, on its own (issue 15): bin/baton.js tries this
 * small bundle (dist/cli/baton-picker.cjs) for `baton resume` with no id before the resume bundle.
 * It holds the host's client, the list view and clack, and none of the store, the scanner or
 * commander: the resume bundle (966 KB of source, a 294 KB code cache) was read, deserialized and
 * run before the first frame only to reach these (bench/README.md, "Fifteenth sitting"). What it
 * does not handle (no terminal, no host, a host that does not answer) returns false, and the
 * launcher runs the resume bundle as before, so what the person sees never depends on the path.
 * Once a row is chosen, a Baton session is claimed by the resume bundle (`baton resume ID`).
 */
import { existsSync } from 'node:fs';
import type { ListGroup } from '../core/importers/candidate-list.js';
import { resolveDataDir } from '../core/paths.js';
import { resolveEndpoint } from '../core/transport/endpoint.js';
import { markPhase } from '../core/perf/phase-trace.js';
import { groupsOfDocument } from './commands/list-document.js';
import { listFromHost } from './commands/list-host.js';
import { printToolResume, toolOfRow } from './commands/resume-row.js';
import { createOutput, EXIT } from './output.js';
import { PICKER_FIRST_PAGE_ROWS } from './picker/picker-options.js';

export { warmPicker } from './picker/warm-picker.js';

/**
 * The first screen's request to a running host, as tryHostedPicker makes it, for
 * scripts/build-cli.js: the bundle's code cache is taken after this (against a scratch host), so
 * the host's client (the connection, the handshake's proofs, the answer's parse) comes compiled
 * from it instead of being compiled before every hosted first frame. True when a host answered.
 */
export async function warmHostedListing(): Promise<boolean> {
  const first = await listFromHost({ agents: true, filter: {}, limit: PICKER_FIRST_PAGE_ROWS });
  if (first === null) return false;
  groupsOfDocument(first);
  return true;
}

/** What this bundle needs of the resume bundle (src/cli/resume-main.ts), compiled only when called. */
export interface ResumeBundle {
  main(argv: string[]): Promise<void>;
  loadPickerListing(host: boolean): Promise<readonly ListGroup[]>;
}

/**
 * Runs the picker when argv is `baton resume` alone, on a terminal, with a host answering; false
 * otherwise (nothing printed, nothing read from the terminal), for the resume bundle to run.
 */
export async function tryHostedPicker(argv: readonly string[], resumeBundle: () => ResumeBundle): Promise<boolean> {
  if (argv.length !== 3 || argv[2] !== 'resume') return false;
  if (!process.stdin.isTTY || !process.stdout.isTTY) return false; // the resume bundle says why
  // No socket, no host: decline before loading the client or clack.
  if (process.platform !== 'win32' && !existsSync(resolveEndpoint(resolveDataDir()).address)) return false;
  markPhase('main');
  // The host is asked first; the picker and clack evaluate while it says hello and answers (resume.ts).
  const hosted = listFromHost({ agents: true, filter: {}, limit: PICKER_FIRST_PAGE_ROWS });
  const picker = new Promise<typeof import('./picker/resume-picker.js')>((loaded, failed) => setImmediate(() => import('./picker/resume-picker.js').then(loaded, failed)));
  picker.then((p) => p.loadPrompts()).catch(() => undefined); // a failure is pickSession's to report
  const first = await hosted;
  if (first === null) return false;
  markPhase('listing-hosted');
  const { groups, total } = groupsOfDocument(first);
  markPhase('listing');
  // The whole listing for type-to-filter, once the first frame is drawn: from the host, else (it
  // went away) the resume bundle's own listing.
  const rest = async () => {
    const all = await listFromHost({ agents: true, filter: {} });
    return all !== null ? groupsOfDocument(all).groups : resumeBundle().loadPickerListing(false);
  };
  const { pickSession } = await picker;
  const row = await pickSession(groups, total, { rest });
  if (row === null) {
    process.exitCode = EXIT.failure;
    return true;
  }
  const tool = toolOfRow(row);
  if (tool) printToolResume(row, tool, createOutput(false));
  else await resumeBundle().main(['node', 'baton', 'resume', row.id]);
  return true;
}
