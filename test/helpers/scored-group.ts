// One line of an Atropos groups file as atroposlib's BaseEnv writes it (a ScoredDataGroup with include_messages on).
export function scoredGroupLine(prompt: string, answers: readonly string[], scores: readonly number[]): string {
  return JSON.stringify({
    tokens: answers.map(() => [1, 2]),
    masks: answers.map(() => [-100, 2]),
    scores,
    messages: answers.map((a) => [
      { role: "user", content: prompt },
      { role: "assistant", content: a },
    ]),
  });
}
