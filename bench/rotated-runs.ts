// Times a few commands against each other: one of each first (page cache, the data folder's database), not counted,
// then `reps` rounds with who goes first rotated, so a burst of load on the machine hits each alike.

/** Each command's wall times in milliseconds, by name; `afterRound` sees them after each round (for progress). */
export async function rotatedRuns(
  commands: Record<string, () => Promise<number>>,
  reps: number,
  afterRound: (runs: Record<string, number[]>, round: number) => void,
): Promise<Record<string, number[]>> {
  const names = Object.keys(commands);
  const runs: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (const name of names) await commands[name]!();
  for (let rep = 0; rep < reps; rep++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(rep + k) % names.length]!;
      runs[name]!.push(await commands[name]!());
    }
    afterRound(runs, rep);
  }
  return runs;
}
