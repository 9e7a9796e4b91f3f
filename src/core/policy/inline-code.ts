import type { Findings } from './findings.js';
import { targetsOf, type PathContext } from './targets.js';

/**
 * Inline interpreter code (`python3 -c`, `node -e`, `perl -e`, `ruby -e`, `php -r`, heredocs into
 * them): Baton cannot run it, so it looks for what the code may do. Deleting, spawning a process,
 * opening the network, decoding-and-running, or writing to a path outside the workspace is high;
 * a write whose place cannot be seen is medium; code with none of these (`print(1)`) is low.
 */
export type Language = 'python' | 'node' | 'perl' | 'ruby' | 'php';

interface Capabilities {
  delete: RegExp;
  spawn: RegExp;
  network: RegExp;
  write: RegExp;
  obfuscated: RegExp;
}

const CAPS: Record<Language, Capabilities> = {
  python: {
    delete: /\b(shutil\.rmtree|rmtree|os\.(remove|unlink|rmdir|removedirs)|send2trash)\b|\.(unlink|rmdir)\s*\(/,
    spawn: /\b(os\.(system|popen|exec\w*|spawn\w*|fork|posix_spawn\w*)|subprocess|pty\.spawn|commands\.getoutput|multiprocessing)\b/,
    network: /\b(socket|urllib\d?|requests|http\.client|httpx|aiohttp|ftplib|smtplib|paramiko|telnetlib|urlopen|xmlrpc)\b/,
    write: /\bopen\s*\([^)]{0,256},\s*['"]?[rwax]?[wax+]b?['"]|\.write_(text|bytes)\s*\(|shutil\.(copy\w*|move)|os\.(rename|replace|chmod|chown|symlink|makedirs|mkdir|truncate)/,
    obfuscated: /\b(exec|eval|compile)\s*\(|b64decode|a85decode|codecs\.decode|marshal\.loads|pickle\.loads|zlib\.decompress|bytes\.fromhex/,
  },
  node: {
    delete: /\b(rmSync|rmdirSync|unlinkSync|rimraf|removeSync|emptyDirSync)\b|\bfs\w*\.(rm|rmdir|unlink)\s*\(|promises\.(rm|rmdir|unlink)/,
    spawn: /child_process|\bexecSync\b|\bspawnSync\b|\bexecFile\w*|\bspawn\s*\(|\bexec\s*\(|process\.binding|\bfork\s*\(/,
    network: /['"](node:)?(https?|net|dgram|tls|http2)['"]|\bfetch\s*\(|XMLHttpRequest|WebSocket|\baxios\b|createConnection|\bnet\.connect/,
    write: /\b(writeFile\w*|appendFile\w*|createWriteStream|copyFile\w*|rename\w*|symlink\w*|chmod\w*|chown\w*|truncate\w*|cpSync)\s*\(/,
    obfuscated: /\beval\s*\(|new\s+Function\b|\bFunction\s*\(|['"]base64['"]|\batob\s*\(|fromCharCode|\bvm\.\w+|runInThisContext/,
  },
  perl: {
    delete: /\bunlink\b|\brmtree\b|\bremove_tree\b|\brmdir\b/,
    spawn: /\bsystem\b|\bexec\b|`|\bqx\b|\bfork\b|open\s*\(?[^;]{0,256}\|/,
    network: /Socket|LWP|HTTP::|Net::|IO::Socket|\bsocket\s*\(/,
    write: /open\s*\(?\s*\w+\s*,\s*['"]?\+?>|\brename\b|\bsymlink\b|\bchmod\b|\bchown\b/,
    obfuscated: /\beval\b|\bpack\s*\(|MIME::Base64|decode_base64/,
  },
  ruby: {
    delete: /FileUtils\.(rm\w*|remove\w*)|File\.(delete|unlink)|Dir\.(delete|rmdir|unlink)/,
    spawn: /\bsystem\b|\bexec\b|`|%x|IO\.popen|Open3|\bspawn\b|\bfork\b|Kernel\.open/,
    network: /Socket|Net::HTTP|open-uri|URI\.open|TCPSocket|HTTParty|Faraday/,
    write: /File\.(write|open\s*\([^)]{0,256}['"][wa])|FileUtils\.(cp|mv|touch|mkdir\w*|ln\w*|chmod\w*)|IO\.write/,
    obfuscated: /\beval\b|instance_eval|class_eval|Base64|\.unpack/,
  },
  php: {
    delete: /\bunlink\s*\(|\brmdir\s*\(/,
    spawn: /\b(system|exec|shell_exec|passthru|popen|proc_open|pcntl_exec)\s*\(|`/,
    network: /fsockopen|stream_socket_client|curl_|socket_create|file_get_contents\s*\(\s*['"]https?:/,
    write: /file_put_contents|fopen\s*\([^)]{0,256}['"][wax]|\brename\s*\(|\bcopy\s*\(|\bchmod\s*\(/,
    obfuscated: /\beval\s*\(|base64_decode|gzinflate|str_rot13|assert\s*\(|create_function/,
  },
};

const INTERPRETER_LANGUAGE: Record<string, Language> = {
  python: 'python', python2: 'python', python3: 'python', pypy: 'python', pypy3: 'python',
  node: 'node', nodejs: 'node', deno: 'node', bun: 'node',
  perl: 'perl', ruby: 'ruby', php: 'php',
};

export function languageOf(name: string): Language | null {
  if (Object.hasOwn(INTERPRETER_LANGUAGE, name)) return INTERPRETER_LANGUAGE[name]!;
  if (/^python\d(\.\d+)?$/.test(name)) return 'python';
  return null;
}

/** The inline-code flags of each interpreter: the argument after one of these is code. */
export const CODE_FLAGS: Record<Language, readonly string[]> = {
  python: ['-c'],
  node: ['-e', '--eval', '-p', '--print'],
  perl: ['-e', '-E'],
  ruby: ['-e'],
  php: ['-r'],
};

const PATH_LITERAL = /['"]((?:\/|~\/)[^'"\s]*)['"]/g;
/** Code longer than this is not scanned: it is rated medium as unseeable. */
export const MAX_INLINE_CODE_CHARS = 32 * 1024;

export function inspectCode(lang: Language, code: string, shown: string, pc: PathContext, f: Findings): void {
  if (code.length > MAX_INLINE_CODE_CHARS) {
    f.add('medium', 'inline-code-unseen', `${shown} runs ${code.length} characters of inline ${lang} code, more than Baton reads`);
    return;
  }
  const caps = CAPS[lang];
  if (caps.delete.test(code)) f.add('high', 'inline-code-deletes', `${shown} runs inline ${lang} code that deletes files`);
  if (caps.spawn.test(code)) f.add('high', 'inline-code-spawns', `${shown} runs inline ${lang} code that starts other programs or a shell`);
  if (caps.network.test(code)) f.add('high', 'inline-code-network', `${shown} runs inline ${lang} code that opens the network`);
  if (caps.obfuscated.test(code)) f.add('high', 'inline-code-obfuscated', `${shown} runs inline ${lang} code that decodes or evaluates more code, which Baton cannot see`);
  if (caps.write.test(code)) {
    const outside = [...code.matchAll(PATH_LITERAL)]
      .flatMap((m) => targetsOf({ value: m[1]!, dynamic: false }, pc))
      .filter((t) => t.sensitive || !['inside', 'root', 'temp'].includes(t.place));
    if (outside.length > 0) f.add('high', 'inline-code-writes-outside', `${shown} runs inline ${lang} code that writes to ${outside.map((t) => t.path).join(', ')}, outside the workspace or sensitive`);
    else f.add('medium', 'inline-code-writes', `${shown} runs inline ${lang} code that writes files; check where`);
  }
  if (/__import__|importlib|require\s*\(\s*[^'"\s)]/.test(code)) f.add('medium', 'inline-code-unseen', `${shown} loads modules by computed name; Baton cannot see which`);
}
