import type { SessionDoc } from '../../../../shared/session';

/** Splits `allow:` / `deny:` / `root:` / `grant:` rules for display (a bare rule counts as allow, as in narrow.ts). */
export function groupRules(rules: readonly string[]): Record<'allow' | 'deny' | 'root' | 'grant', string[]> {
  const out = { allow: [] as string[], deny: [] as string[], root: [] as string[], grant: [] as string[] };
  for (const rule of rules) {
    const m = /^(allow|deny|root|grant):(.*)$/s.exec(rule);
    out[(m?.[1] as keyof typeof out | undefined) ?? 'allow'].push(m?.[2] ?? rule);
  }
  return out;
}

const LABELS = { allow: 'Allowed', deny: 'Denied', grant: 'Allowed for this session', root: 'Directories' } as const;

function RuleList({ rules, testId }: { rules: readonly string[]; testId: string }) {
  const groups = groupRules(rules);
  const kinds = (['deny', 'allow', 'grant', 'root'] as const).filter((k) => groups[k].length > 0);
  if (kinds.length === 0) return <p className="muted">No rules.</p>;
  return (
    <dl className="facts carried-rules" data-testid={testId}>
      {kinds.map((kind) => (
        <div key={kind}>
          <dt>{LABELS[kind]}</dt>
          <dd>
            <ul className="rule-list">
              {groups[kind].map((rule) => (
                <li key={rule}>
                  <code data-testid={`rule-${kind}`}>{rule}</code>
                </li>
              ))}
            </ul>
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The permission state the session carried (mode and rules, where they came from) and what is in
 * force on this host after narrowing: permissions only narrow across a handoff.
 */
export function CarriedPermissions({ permission }: { permission: SessionDoc['permission'] }) {
  if (permission === null) return null;
  const { inForce } = permission;
  return (
    <section className="carried-permissions" aria-labelledby="carried-permissions-title" data-testid="carried-permissions">
      <h2 id="carried-permissions-title" className="section-title">
        Permissions
      </h2>
      <p>
        Carried mode <code data-testid="carried-mode">{permission.mode}</code>
        {permission.sourceMode !== undefined && permission.sourceMode !== permission.mode && (
          <span className="muted">
            {' '}
            (in {permission.sourceTool ?? 'the source'}: <code>{permission.sourceMode}</code>)
          </span>
        )}
        {inForce !== undefined && (
          <>
            {' '}
            · in force here <code data-testid="in-force-mode">{inForce.mode}</code>
          </>
        )}
      </p>
      <RuleList rules={permission.rules} testId="carried-rules" />
      {(permission.sources?.length ?? 0) > 0 && (
        <p className="muted carried-sources">
          Read from:{' '}
          {permission.sources!.map((s, i) => (
            <span key={`${s.kind}:${s.path ?? i}`}>
              {i > 0 ? ', ' : ''}
              {s.kind}
              {s.path !== undefined ? <code> {s.path}</code> : null}
            </span>
          ))}
        </p>
      )}
      {inForce !== undefined && [...inForce.rules].sort().join('\n') !== [...permission.rules].sort().join('\n') && (
        <details className="in-force-rules">
          <summary>In force on this host after narrowing</summary>
          <RuleList rules={inForce.rules} testId="in-force-rules" />
        </details>
      )}
      {inForce !== undefined && inForce.revokedGrants.length > 0 && (
        <p className="notice notice-warn" role="note" data-testid="revoked-grants">
          Revoked at the handoff (this host's policy does not cover them): {inForce.revokedGrants.map((g) => `${g}`).join(', ')}
        </p>
      )}
      {permission.rulesSha256 !== undefined && (
        <p className="muted">
          Rules artifact <code title={permission.rulesSha256}>{permission.rulesSha256.slice(0, 12)}</code>
        </p>
      )}
    </section>
  );
}
