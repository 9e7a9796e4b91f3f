/**
 * Shapes secretlint's recommended preset (11.7) does not report, measured against the corpus in
 * ./test-support/secret-corpus.ts. Each one is listed, with why, in docs/redaction.md. A pattern
 * reports only the `secret` group when it has one, so the key name around it stays readable.
 * They run beside secretlint rather than as a secretlint rule: secretlint's duplicate filter is
 * quadratic in findings (detect-secrets.ts), and these patterns need no windows.
 *
 * Patterns are anchored on a provider prefix or on a key name; none guesses from entropy alone,
 * because hashes, UUIDs and base64 images fill ordinary sessions.
 */
export interface ExtraPattern {
  /** Shown in the redaction marker: [REDACTED:<kind>]. */
  kind: string;
  pattern: RegExp;
  /** A match the pattern cannot rule out by itself (e.g. "Basic usage"): false keeps it. */
  accept?: (secret: string) => boolean;
}

/** Values of a key=value that are settings, not secrets. */
const NOT_A_SECRET_VALUE = /^(?:true|false|null|none|nil|undefined|string|number|boolean|required|optional|changeme|\*+)$/i;
const KEY_NAMES = String.raw`(?:password|passwd|passphrase|secret|client_secret|secret_key|api_?key|apikey|access_?token|auth_?token|refresh_token|private_key|access_key|secret_access_key)`;

export const EXTRA_PATTERNS: readonly ExtraPattern[] = [
  // The preset's AWS rule needs a word boundary after a closing quote (so `KEY="…"` at the end of a
  // string is missed) and reports a range that starts at the key name, leaving most of the key.
  {
    kind: 'aws-secret-key',
    pattern: /(?:aws_?)?secret_?access_?key["']?\s*(?::|=>|=)\s*["']?(?<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/dgi,
  },
  // The preset reports access key ids only with `enableIDScanRule`, which it leaves off; we turn it
  // on, and this catches the id outside the preset's word boundaries too.
  { kind: 'aws-access-key', pattern: /(?<![A-Z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Z0-9])/dg },
  { kind: 'github-token', pattern: /(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{36,255}(?![A-Za-z0-9_])/dg },
  // The preset stops an app-level token (xapp-) at its second dash, leaving the secret part.
  { kind: 'slack-token', pattern: /(?<![A-Za-z0-9_])(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}/dg },
  { kind: 'gitlab-token', pattern: /(?<![A-Za-z0-9_])gl(?:pat|ptt|dt|rt|cbt|imt|ft|soat|agent)-[A-Za-z0-9_-]{20,}/dg },
  { kind: 'npm-token', pattern: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/dg },
  { kind: 'stripe-key', pattern: /(?<![A-Za-z0-9_])(?:sk|rk)_live_[A-Za-z0-9]{20,}/dg },
  { kind: 'stripe-webhook-secret', pattern: /(?<![A-Za-z0-9_])whsec_[A-Za-z0-9+/=]{24,}/dg },
  { kind: 'google-api-key', pattern: /(?<![A-Za-z0-9_])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/dg },
  { kind: 'huggingface-token', pattern: /(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{30,}(?![A-Za-z0-9])/dg },
  { kind: 'digitalocean-token', pattern: /(?<![A-Za-z0-9_])do[opr]_v1_[a-f0-9]{64}(?![a-f0-9])/dg },
  // OpenAI keys issued since 2024 do not always carry the T3BlbkFJ marker the preset requires.
  { kind: 'openai-key', pattern: /(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}/dg },
  // A JSON header and a JSON payload (both start with {" → eyJ), then a signature.
  { kind: 'jwt', pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{10,}/dg },
  {
    kind: 'basic-auth',
    pattern: /\bBasic\s+(?<secret>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/dg,
    // Only base64 that decodes to user:password ("Basic usage" is prose).
    accept: (secret) => /^[\x20-\x7e]+:[\x20-\x7e]*$/.test(Buffer.from(secret, 'base64').toString('latin1')),
  },
  { kind: 'bearer-token', pattern: /\bBearer\s+(?<secret>[A-Za-z0-9._~+/-]{20,}=*)/dg },
  // .env and shell: an upper-case name that ends in a secret word, then a literal value (not $VAR, ${…} or <placeholder>).
  {
    kind: 'env-secret',
    pattern:
      /^[ \t]*(?:export[ \t]+)?[A-Z0-9_]*(?:PASSWORD|PASSWD|PASSPHRASE|SECRET|SECRET_KEY|TOKEN|API_KEY|APIKEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)[ \t]*=[ \t]*(["']?)(?<secret>[^\s"'$<{][^\s"']{3,})\1/dgm,
    accept: (secret) => !NOT_A_SECRET_VALUE.test(secret),
  },
  // JSON, YAML, TOML, code: a secret-named key with a quoted literal.
  {
    kind: 'keyed-secret',
    pattern: new RegExp(String.raw`(?<![A-Za-z0-9_])["']?${KEY_NAMES}["']?[ \t]*(?::|=>|=)[ \t]*["'](?<secret>[^"'\s]{6,})["']`, 'dgi'),
    accept: (secret) => !NOT_A_SECRET_VALUE.test(secret),
  },
  // YAML with an unquoted value on its own line.
  {
    kind: 'keyed-secret',
    pattern: new RegExp(String.raw`^[ \t]*${KEY_NAMES}[ \t]*:[ \t]+(?<secret>[^\s#'"{$&*|>][^\s#]{5,})[ \t]*$`, 'dgim'),
    accept: (secret) => !NOT_A_SECRET_VALUE.test(secret) && !/[;,()]$/.test(secret),
  },
  {
    kind: 'url-secret-param',
    pattern: /[?&](?:api_?key|apikey|access_token|auth_token|token|key|secret|client_secret|password|sig|signature)=(?<secret>[^&#\s"'<>]{8,})/dgi,
  },
  // PEM blocks the preset skips: no END line (a truncated paste), PGP armour, or a body that
  // does not start with the ASN.1 magic the preset checks for. Runs to END, or to the first
  // character no key or armour header uses.
  {
    kind: 'private-key',
    pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[A-Za-z0-9+/=:\s,.-]|\\[nr])*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|(?=[^A-Za-z0-9+/=:\s,.\\-])|$)/dg,
  },
  { kind: 'azure-storage-key', pattern: /\b(?:AccountKey|SharedAccessKey)=(?<secret>[A-Za-z0-9+/]{20,}={0,2})/dg },
];
