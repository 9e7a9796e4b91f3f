import type { Command } from 'commander';
import { resolveDataDir } from '../../core/paths.js';
import { runSshSession, SshSessionError } from '../../core/ssh/ssh-session.js';
import { loadOrCreateToken, resolveEndpoint } from '../../core/transport/endpoint.js';
import { EXIT } from '../output.js';
import { terminalLines } from '../terminal-text.js';

/**
 * `baton ssh <host> [ssh args…] [-- command…]`, run on the laptop (issue 22). Everything between
 * the host and `--` goes to ssh as options; words after `--` are the remote command (default: a
 * login shell). The exit code is ssh's.
 */
export function splitSshArgs(words: readonly string[]): { sshArgs: string[]; command: string[] } {
  const at = words.indexOf('--');
  return at < 0 ? { sshArgs: [...words], command: [] } : { sshArgs: words.slice(0, at), command: words.slice(at + 1) };
}

export function registerSsh(program: Command): void {
  program
    .command('ssh')
    .description('open an ssh session whose remote end can hand off to this desktop (baton handoff, approve and task find it there)')
    .argument('<host>', 'the ssh destination: host, user@host or an alias from ~/.ssh/config')
    .argument('[ssh-args...]', 'ssh options (-p 2222, -i key, -o …); after --, the remote command')
    // ssh's own options (-p, -i, -v …) are not ours: they arrive as words, `--` included.
    .allowUnknownOption()
    .allowExcessArguments()
    .helpOption(false)
    .action(async (host: string, rest: string[]) => {
      const { sshArgs, command } = splitSshArgs(rest);
      const dataDir = resolveDataDir();
      const endpoint = resolveEndpoint(dataDir);
      try {
        process.exitCode = await runSshSession({
          endpoint,
          token: await loadOrCreateToken(endpoint.tokenPath),
          host,
          sshArgs,
          command,
          tty: command.length === 0 && process.stdin.isTTY === true,
          // What the remote printed reaches this terminal only through the sanitiser.
          log: (line) => process.stderr.write(`${terminalLines(line)}\n`),
        });
      } catch (error) {
        const code = error instanceof SshSessionError ? error.code : 'ERROR';
        process.stderr.write(`baton ssh: ${code}: ${terminalLines((error as Error).message)}\n`);
        process.exitCode = EXIT.failure;
      }
    });
}
