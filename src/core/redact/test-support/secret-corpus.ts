/**
 * Secret shapes that must never reach the disk, and benign text that must pass untouched. Values
 * are assembled from parts so this file itself does not look like a leaked credential to a
 * scanner; each is the shape the real provider issues (prefix, alphabet, length).
 */
export interface SecretCase {
  name: string;
  /** The text as it would appear in a message, a title or a tool input. */
  text: string;
  /** The secret part: it must be gone after redaction. */
  secret: string;
}

const alnum = 'aB3dE5fG7hJ9kL2mN4pQ6rS8tV0wX1yZ';
/** A deterministic run of `n` characters from `alphabet`. */
function run(n: number, alphabet = alnum, seed = 7): string {
  let out = '';
  for (let i = 0; i < n; i++) out += alphabet[(i * seed + 3) % alphabet.length];
  return out;
}
const hex = '0123456789abcdef';
const upperNum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const b64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const b64url = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function secret(name: string, secretValue: string, around: (s: string) => string = (s) => s): SecretCase {
  return { name, text: around(secretValue), secret: secretValue };
}

/** Real key bodies open with the ASN.1 SEQUENCE (MII…) or the OpenSSH magic; detectors check it. */
const pemLines = (first: string) => [first + run(64 - first.length, b64, 5), ...Array.from({ length: 5 }, (_, i) => run(64, b64, 7 + 2 * i))].join('\n');
const pemBody = pemLines('MIIEowIBAAKCAQEA');
const opensshBody = pemLines('b3BlbnNzaC1rZXktdjEAAAAABG5vbmU');
const jwt = [
  Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url'),
  Buffer.from('{"sub":"1234567890","name":"Jo","iat":1516239022}').toString('base64url'),
  run(43, b64url, 11),
].join('.');

export const SECRET_CORPUS: readonly SecretCase[] = [
  secret('aws access key id', 'AK' + 'IA' + run(16, upperNum, 3), (s) => `aws_access_key_id = ${s}`),
  secret('aws temporary key id', 'AS' + 'IA' + run(16, upperNum, 5), (s) => `export AWS_ACCESS_KEY_ID=${s}`),
  secret('aws secret access key (ini)', run(40, b64, 7), (s) => `aws_secret_access_key = ${s}`),
  secret('aws secret access key (env)', run(40, b64, 13), (s) => `AWS_SECRET_ACCESS_KEY="${s}"`),
  secret('github classic token', 'gh' + 'p_' + run(36), (s) => `token ${s}`),
  secret('github oauth token', 'gh' + 'o_' + run(36, alnum, 5), (s) => `GITHUB_TOKEN=${s}`),
  secret('github app token', 'gh' + 's_' + run(36, alnum, 11), (s) => `using ${s} for the app`),
  secret('github refresh token', 'gh' + 'r_' + run(76, alnum, 13), (s) => `refresh: ${s}`),
  secret('github fine-grained token', 'github' + '_pat_' + run(22, alnum, 3) + '_' + run(59, alnum, 5), (s) => `GH_PAT=${s}`),
  secret('gitlab personal token', 'gl' + 'pat-' + run(20, b64url, 3), (s) => `git push with ${s}`),
  secret('npm token', 'np' + 'm_' + run(36, alnum, 9), (s) => `//registry.npmjs.org/:_authToken=${s}`),
  secret('stripe live secret key', 'sk' + '_live_' + run(24, alnum, 3), (s) => `stripe.api_key = "${s}"`),
  secret('stripe restricted key', 'rk' + '_live_' + run(24, alnum, 5), (s) => `key: ${s}`),
  secret('stripe webhook secret', 'wh' + 'sec_' + run(32, alnum, 7), (s) => `STRIPE_WEBHOOK=${s}`),
  secret('google api key', 'AI' + 'za' + run(35, b64url, 3), (s) => `const key = '${s}';`),
  secret('slack bot token', 'xo' + 'xb-' + '123456789012-1234567890123-' + run(24, alnum, 3), (s) => `SLACK=${s}`),
  secret('slack user token', 'xo' + 'xp-' + '123456789012-123456789012-123456789012-' + run(32, hex, 3), (s) => `slack ${s}`),
  secret('slack app token', 'xa' + 'pp-1-A0123456789-1234567890123-' + run(64, hex, 5), (s) => `app token ${s}`),
  secret('slack webhook', 'https://hooks.slack' + '.com/services/T' + run(8, upperNum, 3) + '/B' + run(8, upperNum, 5) + '/' + run(24, alnum, 7), (s) => `curl -X POST ${s}`),
  secret('jwt', jwt, (s) => `Authorization: Bearer ${s}`),
  secret('jwt alone', jwt, (s) => `the id token is ${s} today`),
  secret('basic auth header', Buffer.from('admin:' + run(12)).toString('base64'), (s) => `Authorization: Basic ${s}`),
  secret('bearer token', run(40, b64url, 3), (s) => `curl -H "Authorization: Bearer ${s}"`),
  secret('.env PASSWORD', 'hunter2' + run(6), (s) => `PASSWORD=${s}`),
  secret('.env DB_PASSWORD quoted', run(14, alnum, 5), (s) => `DB_PASSWORD="${s}"`),
  secret('.env SECRET_KEY', run(50, alnum, 3), (s) => `export SECRET_KEY=${s}`),
  secret('.env CLIENT_SECRET', run(32, alnum, 11), (s) => `  CLIENT_SECRET = ${s}`),
  secret('api_key in a URL', run(32, hex, 7), (s) => `GET https://api.example.com/v1/items?api_key=${s}&page=2`),
  secret('access_token in a URL', run(40, alnum, 7), (s) => `https://example.com/cb?state=x&access_token=${s}`),
  secret('url credentials', 'hunter2' + run(4), (s) => `git clone https://alice:${s}@git.example.com/x/y.git`),
  secret('postgres connection string', 'pg' + run(12), (s) => `DATABASE_URL=postgres://app:${s}@db.internal:5432/app`),
  secret('mongodb connection string', 'mongo' + run(12), (s) => `mongodb+srv://root:${s}@cluster0.example.net/test`),
  secret('rsa private key', `-----BEGIN RSA PRIVATE KEY-----\n${pemBody}\n-----END RSA PRIVATE KEY-----`),
  secret('pkcs8 private key', `-----BEGIN PRIVATE KEY-----\n${pemBody}\n-----END PRIVATE KEY-----`, (s) => `key.pem:\n${s}\n`),
  secret('openssh private key', `-----BEGIN OPENSSH PRIVATE KEY-----\n${opensshBody}\n-----END OPENSSH PRIVATE KEY-----`),
  secret('ec private key', `-----BEGIN EC PRIVATE KEY-----\n${pemBody}\n-----END EC PRIVATE KEY-----`),
  secret('private key with no END line', `-----BEGIN RSA PRIVATE KEY-----\n${pemBody}`, (s) => `cat id_rsa | head -7\n${s}`),
  secret('pgp private key block', `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${pemBody}\n=abcd\n-----END PGP PRIVATE KEY BLOCK-----`),
  secret('private key in JSON (escaped newlines)', `-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBg${run(50, b64, 3)}\\n${run(64, b64, 5)}\\n-----END PRIVATE KEY-----\\n`, (s) => `{"type":"service_account","private_key":"${s}"}`),
  secret('azure storage account key', run(86, b64, 3) + '==', (s) => `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${s};EndpointSuffix=core.windows.net`),
  secret('hugging face token', 'h' + 'f_' + run(34, alnum, 3), (s) => `HF_TOKEN=${s}`),
  secret('sendgrid key', 'S' + 'G.' + run(22, b64url, 3) + '.' + run(43, b64url, 5), (s) => `sg key ${s}`),
  secret('anthropic key', 'sk-' + 'ant-api03-' + run(93, b64url, 3) + 'AA', (s) => `ANTHROPIC_API_KEY=${s}`),
  secret('openai project key', 'sk-' + 'proj-' + run(74, b64url, 3) + 'T3Blbk' + 'FJ' + run(74, b64url, 5), (s) => `OPENAI_API_KEY=${s}`),
  secret('openai legacy key', 'sk-' + run(20, alnum, 3) + 'T3Blbk' + 'FJ' + run(20, alnum, 5), (s) => `openai.api_key = "${s}"`),
  secret('shopify access token', 'sh' + 'pat_' + run(32, hex, 3), (s) => `X-Shopify-Access-Token: ${s}`),
  secret('linear api key', 'lin' + '_api_' + run(40, alnum, 3), (s) => `LINEAR=${s}`),
  secret('digitalocean token', 'do' + 'p_v1_' + run(64, hex, 3), (s) => `doctl auth init -t ${s}`),
  secret('json password field', 'correct-horse-' + run(8), (s) => `{"user":"bob","password":"${s}"}`),
  secret('openai key without the marker', 'sk-' + 'proj-' + run(48, b64url, 7), (s) => `key=${s}`),
  secret('gitlab deploy token', 'gl' + 'dt-' + run(20, b64url, 5), (s) => `${s}`),
  secret('azure sas signature', run(43, b64, 5) + '%3D', (s) => `https://acct.blob.core.windows.net/c/f?sv=2022-11-02&sig=${s}`),
  secret('private key in a title', `-----BEGIN RSA PRIVATE KEY-----\n${pemBody.slice(0, 64)}`, (s) => `Fix deploy: ${s}`),
  secret('yaml api_key field', run(32, alnum, 5), (s) => `service:\n  api_key: ${s}\n`),
];

/** Text that looks technical but holds no secret: none of it may be redacted. */
export const BENIGN_CORPUS: readonly { name: string; text: string }[] = [
  { name: 'sha256 hex', text: `sha256: ${run(64, hex, 3)}` },
  { name: 'sha1 git sha', text: `commit ${run(40, hex, 5)}\nAuthor: Jo <jo@example.com>` },
  { name: 'short git sha', text: `fixed in ${run(7, hex, 3)} and ${run(12, hex, 5)}` },
  { name: 'uuid v4', text: 'session 3f2b8c1e-9a4d-4e7f-b1c2-0d9e8f7a6b5c started' },
  { name: 'uuid list', text: '["0b7e3c2a-1d4f-4a8b-9c6d-5e4f3a2b1c0d","a1b2c3d4-e5f6-4789-abcd-ef0123456789"]' },
  { name: 'base64 png data url', text: `<img src="data:image/png;base64,iVBORw0KGgo${run(400, b64, 3)}==">` },
  { name: 'base64 blob in JSON', text: `{"image":{"type":"base64","media_type":"image/jpeg","data":"/9j/4AAQ${run(600, b64, 7)}"}}` },
  { name: 'npm integrity', text: `"integrity": "sha512-${run(86, b64, 5)}=="` },
  { name: 'docker digest', text: `node@sha256:${run(64, hex, 7)}` },
  { name: 'ssh public key', text: `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${run(43, b64, 3)} jo@laptop` },
  { name: 'typescript with password variable', text: 'const password = req.body.password;\nif (!password) throw new Error("missing password");' },
  { name: 'type annotation', text: 'interface Login { username: string; password: string; token?: string }' },
  { name: 'token counting', text: '{"input_tokens": 1532, "output_tokens": 210, "token_count": 4096}' },
  { name: 'env reference', text: 'API_KEY=$API_KEY\nPASSWORD=${DB_PASSWORD}\nTOKEN=<your token here>' },
  { name: 'env placeholder empty', text: 'PASSWORD=\nSECRET_KEY=' },
  { name: 'config length constant', text: 'PASSWORD_MIN_LENGTH=8\nTOKEN_TTL_SECONDS=3600' },
  { name: 'url without credentials', text: 'see https://github.com/anthropics/claude-code/issues/1234?tab=comments#top' },
  { name: 'url with ordinary query', text: 'https://example.com/search?q=api+key+rotation&page=2&sort=desc' },
  { name: 'bearer in prose', text: 'The bearer of bad news was the build log.' },
  { name: 'basic in prose', text: 'Basic usage: run the command with --help.' },
  { name: 'key prefixes in prose', text: 'Stripe test keys start with pk_test_ and GitHub tokens with ghp_; npm_ is npm.' },
  { name: 'rust code', text: 'fn main() {\n    let key = std::env::var("KEY").expect("KEY set");\n    println!("{}", key.len());\n}' },
  { name: 'python code', text: 'def login(user, password):\n    return hash_password(password) == user.password_hash' },
  { name: 'sql', text: "SELECT id, password_hash FROM users WHERE email = 'jo@example.com';" },
  { name: 'minified js', text: `!function(e){var t={};function n(r){if(t[r])return t[r].exports}n.m=e}(${run(200, alnum, 3)});` },
  { name: 'long random-looking identifier', text: `cache key ${run(48, alnum, 5)}` },
  { name: 'version strings', text: 'node v20.20.2, npm 11.19.0, electron 45.5.0' },
  { name: 'file paths', text: '/home/jo/.ssh/known_hosts and ~/.aws/config and C:\\Users\\jo\\AppData' },
  { name: 'public key pem', text: `-----BEGIN PUBLIC KEY-----\n${run(64, b64, 3)}\n-----END PUBLIC KEY-----` },
  { name: 'certificate pem', text: `-----BEGIN CERTIFICATE-----\n${run(64, b64, 5)}\n-----END CERTIFICATE-----` },
  { name: 'hex colour and css', text: '.button { color: #1a2b3c; background: rgba(0,0,0,.5); }' },
  { name: 'git diff', text: `diff --git a/src/x.ts b/src/x.ts\nindex ${run(7, hex, 3)}..${run(7, hex, 5)} 100644\n--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1 +1 @@\n-a\n+b` },
  { name: 'timestamp and ids', text: '2026-11-30T11:14:53.123Z msg_01XyZ abc-123 req-9f8e7d' },
  { name: 'markdown table', text: '| key | value |\n|---|---|\n| token | a word |\n| secret | a noun |' },
  { name: 'jwt-like prefix in prose', text: 'JWTs start with eyJ because that is base64 for {"' },
  { name: 'password prompt', text: 'Enter password: \nPassword: (hidden)' },
  { name: 'aws docs arn', text: 'arn:aws:iam::123456789012:role/ci-deploy' },
  { name: 'terraform reference', text: 'password = var.db_password\naccess_key = data.aws_key.id' },
  { name: 'kubernetes secret ref', text: 'valueFrom:\n  secretKeyRef:\n    name: db\n    key: password' },
  { name: 'hash in url path', text: `https://cdn.example.com/assets/${run(32, hex, 7)}/app.js` },
];
