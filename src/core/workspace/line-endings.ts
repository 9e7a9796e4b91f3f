import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { GitResult } from './git.js';
import { REMOTE_URL_KEY } from './remotes.js';

/**
 * Whether git may convert line endings somewhere in this repository (core.autocrlf, or any
 * attributes file that could say `text`/`eol`). `git add` then warns about files whose endings a
 * round trip would change, and the capture keeps those words among its warnings; `git diff` says
 * nothing. So the short way of work-tree-diff.ts is taken only where no conversion can happen:
 * the two ways then give the same snapshot, warnings included (work-tree-diff.corpus.test.ts).
 */

/** One `git config` for the capture's first round: the remotes and the line-ending settings. */
export const CAPTURE_CONFIG_ARGS = ['config', '-z', '--get-regexp', `^(${REMOTE_URL_KEY}|core\\.autocrlf|core\\.attributesfile)$`];

/** A git boolean that reads as false (git-config(1)); anything else, `input` included, converts. */
const FALSE_WORDS = new Set(['false', 'no', 'off', '0', '']);

export interface LineEndingSources {
  /** CAPTURE_CONFIG_ARGS's answer. */
  config: GitResult;
  /** `ls-files -z --stage -v` of the whole index (the capture's gitlinks call), searched as bytes; work-tree-diff.ts reads its tags too. */
  indexListing: Buffer;
  gitDir: string;
  commonDir: string;
}

export function mayConvertLineEndings({ config, indexListing, gitDir, commonDir }: LineEndingSources): boolean {
  if (config.code !== 0 && config.code !== 1) return true; // exit 1: no key matched; anything else: unknown
  for (const record of config.stdout.toString('utf8').split('\0')) {
    const newline = record.indexOf('\n');
    const key = newline < 0 ? record : record.slice(0, newline);
    const value = newline < 0 ? 'true' : record.slice(newline + 1).toLowerCase(); // a key alone is true
    if (key === 'core.autocrlf' && !FALSE_WORDS.has(value)) return true;
    if (key === 'core.attributesfile') return true;
  }
  if (indexListing.includes('\t.gitattributes\0') || indexListing.includes('/.gitattributes\0')) return true;
  const xdg = process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
  const files = [join(gitDir, 'info', 'attributes'), join(commonDir, 'info', 'attributes'), join(xdg, 'git', 'attributes'), '/etc/gitattributes', '/usr/local/etc/gitattributes'];
  return files.some((file) => existsSync(file));
}
