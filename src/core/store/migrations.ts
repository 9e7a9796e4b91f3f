import { SESSION_SCHEMA_VERSION } from '../../shared/session.js';

/**
 * session.json versions. Version 0 is the pre-release shape (fixture: fixtures/session-v0.json):
 * no `schemaVersion`, no `holder`, no `revision`, no `archived`, no `messageCount`, and `source`
 * as a bare tool name ("claude") instead of an object. Version 1 is SessionDoc in src/shared.
 * Each migration takes version n to n + 1 and keeps every field it does not understand.
 */
type Doc = Record<string, unknown>;

const MIGRATIONS: Record<number, (doc: Doc) => Doc> = {
  0: (doc) => {
    const { source, ...rest } = doc;
    return {
      ...rest,
      schemaVersion: 1,
      source: typeof source === 'string' ? { tool: source } : (source ?? { tool: 'other' }),
      parentId: doc.parentId ?? null,
      gitRoot: doc.gitRoot ?? null,
      branch: doc.branch ?? null,
      model: doc.model ?? null,
      permission: doc.permission ?? null,
      holder: doc.holder ?? { who: 'terminal', epoch: 1 },
      revision: typeof doc.revision === 'number' ? doc.revision : 0,
      messageCount: typeof doc.messageCount === 'number' ? doc.messageCount : 0,
      archived: doc.archived ?? false,
    };
  },
};

export function versionOf(doc: Doc): number {
  return typeof doc.schemaVersion === 'number' ? doc.schemaVersion : 0;
}

/** Brings a document up to SESSION_SCHEMA_VERSION; newer documents are returned unchanged. */
export function migrateSessionDoc(doc: Doc): { doc: Doc; from: number } {
  const from = versionOf(doc);
  let current = doc;
  for (let v = from; v < SESSION_SCHEMA_VERSION; v++) {
    const step = MIGRATIONS[v];
    if (!step) throw new Error(`no migration from session.json version ${v}`);
    current = step(current);
  }
  return { doc: current, from };
}
