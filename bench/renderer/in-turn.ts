/**
 * The builds of an A/B bench in the order of run `run`: as given in even runs, reversed in odd
 * ones. With a fixed order the second build of every pair came out 130–210 ms faster from
 * navigation to row at load 10–13 whichever build it was (thirteenth sitting, issue 15): the
 * pair's first page pays for Chromium and the disk cache waking up. Alternating puts half the
 * runs of each build in each place.
 */
export function inTurn<T>(builds: readonly T[], run: number): readonly T[] {
  return run % 2 === 0 ? builds : [...builds].reverse();
}
