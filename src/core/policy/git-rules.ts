import type { Findings } from './findings.js';
import { flagsOf, type Word } from './words.js';

/**
 * git: history and work that cannot be recovered, and the ways git runs other commands (aliases,
 * core.sshCommand, hooks). git accepts any unambiguous prefix of a long option (`--har` is
 * `--hard`), so an option is read as every dangerous option it is a prefix of.
 */
const GLOBAL_WITH_ARG = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env']);
/** Config keys whose value git runs as a command. */
const RUNS_COMMAND = /^(alias\.|core\.(sshcommand|hookspath|fsmonitor|pager|editor|askpass|gitproxy)|credential\.helper|diff\.\w+\.(textconv|command)|filter\.|merge\.\w+\.driver|sequence\.editor|gpg\.program|uploadpack\.packobjectshook|protocol\.ext)/i;

/** The long option `given` (`--for`) may stand for `full` (`--force`). */
export function longMatches(given: string, full: string): boolean {
  const name = given.split('=')[0]!;
  return name.length >= 3 && full.startsWith(name);
}

function hasLong(long: Set<string>, full: string): boolean {
  return [...long].some((l) => longMatches(l, full));
}

export function checkGit(args: Word[], f: Findings): void {
  const values = args.map((w) => w.value);
  let i = 0;
  while (i < values.length && values[i]!.startsWith('-')) {
    const v = values[i]!;
    if (v === '-c' || v.startsWith('--config-env')) {
      const kv = v === '-c' ? values[i + 1] ?? '' : v.split('=').slice(1).join('=');
      if (RUNS_COMMAND.test(kv)) f.add('high', 'git-runs-command', `git -c ${kv.slice(0, 60)} makes git run a command of the caller's choosing (alias or hook)`);
    }
    i += GLOBAL_WITH_ARG.has(v) ? 2 : 1;
  }
  const sub = values[i] ?? '';
  const rest = args.slice(i + 1);
  const { short, long, operands } = flagsOf(rest);
  const ops = operands.map((w) => w.value);
  switch (sub) {
    case 'push':
      if (hasLong(long, '--force') || short.has('f')) f.add('high', 'git-force-push', "git push --force rewrites the remote branch and can discard other people's commits");
      else if (hasLong(long, '--force-with-lease') || hasLong(long, '--force-if-includes')) f.add('high', 'git-force-push', 'git push --force-with-lease still rewrites the remote history; its lease is only as fresh as the last fetch');
      else if (ops.some((v) => v.startsWith('+'))) f.add('high', 'git-force-push', 'git push +refspec force-updates the remote branch');
      if (hasLong(long, '--delete') || short.has('d') || ops.some((v) => v.startsWith(':'))) f.add('high', 'git-delete-remote-branch', 'git push deletes a branch on the remote');
      if (hasLong(long, '--mirror') || hasLong(long, '--prune')) f.add('high', 'git-mirror-push', 'git push --mirror/--prune can delete remote branches');
      break;
    case 'reset':
      if (hasLong(long, '--hard') || hasLong(long, '--merge') || hasLong(long, '--keep')) f.add('high', 'git-reset-hard', 'git reset --hard throws away uncommitted changes; they cannot be recovered');
      break;
    case 'clean':
      if (short.has('f') || hasLong(long, '--force')) f.add('high', 'git-clean', 'git clean -f deletes untracked files; they are not in git and cannot be recovered');
      break;
    case 'checkout':
    case 'restore':
    case 'switch':
      if (ops.includes('.') || values.includes('--') || hasLong(long, '--force') || short.has('f') || hasLong(long, '--discard-changes') || (sub === 'restore' && ops.length > 0 && (!hasLong(long, '--staged') || hasLong(long, '--worktree')) && !short.has('S')))
        f.add('medium', 'git-discard-changes', `git ${sub} can overwrite uncommitted changes in the working tree`);
      break;
    case 'branch':
      if (short.has('D') || ((short.has('d') || hasLong(long, '--delete')) && (short.has('f') || hasLong(long, '--force')))) f.add('medium', 'git-delete-branch', 'git branch -D deletes a branch even if it is not merged');
      break;
    case 'filter-branch':
    case 'filter-repo':
      f.add('high', 'git-history-rewrite', `git ${sub} rewrites the whole history`);
      break;
    case 'stash':
      if (['clear', 'drop'].includes(ops[0] ?? '')) f.add('high', 'git-history-rewrite', `git stash ${ops[0]} destroys stashed work`);
      break;
    case 'reflog':
      if (ops[0] === 'expire' || ops[0] === 'delete') f.add('high', 'git-history-rewrite', 'git reflog expire/delete removes the way back to lost commits');
      break;
    case 'gc':
    case 'prune':
      if ([...long].some((l) => l.startsWith('--prune')) || sub === 'prune') f.add('medium', 'git-prune', `git ${sub} can delete unreachable commits for good`);
      break;
    case 'update-ref':
      if (short.has('d') || long.has('--stdin')) f.add('high', 'git-history-rewrite', 'git update-ref -d deletes a ref directly');
      break;
    case 'rebase':
      f.add('medium', 'git-history-rewrite', 'git rebase rewrites local history');
      break;
    case 'commit':
      if (hasLong(long, '--amend')) f.add('medium', 'git-history-rewrite', 'git commit --amend rewrites local history');
      break;
    case 'config': {
      const key = ops.find((v) => !v.startsWith('-')) ?? '';
      if (RUNS_COMMAND.test(key) && ops.length >= 2) f.add('high', 'git-runs-command', `git config ${key} makes git run a command of the caller's choosing (alias or hook)`);
      else if (hasLong(long, '--global') || hasLong(long, '--system')) f.add('medium', 'git-global-config', 'git config --global changes git for every repository');
      break;
    }
    case 'remote':
      if (['set-url', 'remove', 'rm'].includes(ops[0] ?? '')) f.add('medium', 'git-remote-change', `git remote ${ops[0]} changes where this repository pushes`);
      break;
    default:
      break;
  }
}
