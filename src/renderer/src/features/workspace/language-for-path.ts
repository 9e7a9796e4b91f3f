/**
 * Monaco language ids by file extension or name. Only languages Monaco ships a tokenizer for;
 * anything else is plain text, which is honest for a diff.
 */
const BY_EXTENSION: Record<string, string> = {
  ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript',
  js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript',
  json: 'json', jsonc: 'json', json5: 'json',
  css: 'css', scss: 'scss', less: 'less',
  html: 'html', htm: 'html', vue: 'html', svelte: 'html',
  md: 'markdown', markdown: 'markdown', mdx: 'mdx',
  py: 'python', rb: 'ruby', go: 'go', rs: 'rust', java: 'java', kt: 'kotlin', kts: 'kotlin',
  swift: 'swift', m: 'objective-c', c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', cxx: 'cpp', hpp: 'cpp', hh: 'cpp',
  cs: 'csharp', fs: 'fsharp', php: 'php', scala: 'scala', lua: 'lua', r: 'r', dart: 'dart',
  sh: 'shell', bash: 'shell', zsh: 'shell', ps1: 'powershell', bat: 'bat', cmd: 'bat',
  sql: 'sql', graphql: 'graphql', gql: 'graphql', proto: 'proto',
  yml: 'yaml', yaml: 'yaml', toml: 'ini', ini: 'ini', cfg: 'ini', conf: 'ini',
  xml: 'xml', svg: 'xml', plist: 'xml', ex: 'elixir', exs: 'elixir', clj: 'clojure', pl: 'perl',
  tf: 'hcl', hcl: 'hcl', sol: 'sol', dockerfile: 'dockerfile',
};

const BY_NAME: Record<string, string> = {
  dockerfile: 'dockerfile',
  '.bashrc': 'shell',
  '.zshrc': 'shell',
  '.gitignore': 'plaintext',
};

export function languageForPath(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const byName = BY_NAME[name];
  if (byName !== undefined) return byName;
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return 'plaintext';
  return BY_EXTENSION[name.slice(dot + 1)] ?? 'plaintext';
}
