// Builds one generated Atropos-style environment file (300 lines, varied by index) for the discovery benchmarks.

export interface GeneratedFile {
  fileName: string;
  text: string;
  /** The shape of this file, so the results can say what the corpus held. */
  kind: "direct" | "attribute" | "aliased" | "indirect" | "helper";
}

const LINES_PER_FILE = 300;
const FIELD_TYPES = [
  ["int", (i: number) => String(4 + (i % 60))],
  ["float", (i: number) => `${(i % 97) / 100}`],
  ["bool", (i: number) => (i % 2 === 0 ? "True" : "False")],
  ["str", (i: number) => `"value-${i}"`],
  ["Optional[int]", (i: number) => (i % 3 === 0 ? "None" : String(i % 1000))],
  ["List[str]", () => "[]"],
] as const;

export function fileNameOf(index: number): string {
  return `env_${String(index).padStart(4, "0")}.py`;
}

/** The Python class name of the environment in file `index` (its decade's first file is a base for the indirect ones). */
function className(index: number): string {
  return `Task${index}Env`;
}

function kindOf(index: number): GeneratedFile["kind"] {
  const r = index % 10;
  if (r <= 4) return "direct";
  if (r === 5) return "attribute";
  if (r === 6) return "aliased";
  if (r <= 8) return "indirect";
  return "helper";
}

function configClass(index: number, lines: string[]): string {
  const name = `Task${index}Config`;
  const count = 3 + (index % 12);
  lines.push(`class ${name}(BaseEnvConfig):`, `    """Settings of task ${index}: sampling, scoring and dataset options.`, "", `    Tuned on run ${index * 7} of the sweep.`, '    """', "");
  for (let f = 0; f < count; f++) {
    const [type, value] = FIELD_TYPES[(index + f) % FIELD_TYPES.length]!;
    const bounds = type === "int" && f % 2 === 0 ? ", ge=0, le=10000" : type === "float" ? ", ge=0.0" : "";
    lines.push(`    option_${index}_${f}: ${type} = Field(`, `        default=${value(index + f)},`, `        description="Option ${f} of task ${index} (${type})"${bounds},`, "    )");
  }
  lines.push(`    mode_${index}: str = "train"`, "", "");
  return name;
}

function environmentClass(index: number, kind: GeneratedFile["kind"], config: string | undefined, lines: string[]): void {
  const base = kind === "attribute" ? "base.BaseEnv" : kind === "aliased" ? "AtroposBaseEnv" : kind === "indirect" ? className(index - (index % 10)) : "BaseEnv";
  lines.push(
    `class ${className(index)}(${base}):`,
    `    """Task ${index}: answer generated questions and score them by exact match.`,
    "",
    "    Groups of completions are compared, and the better ones are rewarded.",
    '    """',
    "",
    `    name = "task_${index}"`,
  );
  if (config) lines.push(`    env_config_cls = ${config}`);
  lines.push(
    "",
    "    def __init__(self, config, server_configs, slurm=True, testing=False):",
    "        super().__init__(config, server_configs, slurm, testing)",
    "        self.percent_correct_buffer = list()",
    `        self.seed = ${index}`,
    "",
  );
  if (kind !== "indirect" || index % 2 === 0) {
    const cfg = config ?? "BaseEnvConfig";
    lines.push(
      "    @classmethod",
      "    def config_init(cls) -> Tuple[BaseEnvConfig, List[APIServerConfig]]:",
      `        env_config = ${cfg}(`,
      '            tokenizer_name="NousResearch/DeepHermes-3-Llama-3-8B-Preview",',
      `            group_size=${4 + (index % 13)},`,
      "            use_wandb=True,",
      `            total_steps=${100 + index},`,
      `            max_token_length=1024 * ${1 + (index % 4)},`,
      `            wandb_name="task-${index}",`,
      "        )",
      "        server_configs = [",
      "            APIServerConfig(",
      '                model_name="NousResearch/DeepHermes-3-Llama-3-8B-Preview",',
      '                base_url="http://localhost:9001/v1",',
      '                api_key="x",',
      "                num_requests_for_eval=256,",
      "            ),",
      "        ]",
      "        return env_config, server_configs",
      "",
    );
  }
  lines.push(
    "    async def setup(self):",
    `        self.train = [(f"q{i}", i * ${(index % 9) + 1}) for i in range(1000)]`,
    "        self.iter = 0",
    "",
    "    async def get_next_item(self) -> Item:",
    "        item = self.train[self.iter % len(self.train)]",
    "        self.iter += 1",
    '        return ({"role": "user", "content": item[0]}, str(item[1]))',
    "",
    "    async def collect_trajectories(self, item: Item) -> Tuple[Optional[ScoredDataGroup], List[Item]]:",
    "        completions = await self.server.chat_completion(",
    "            messages=[item[0]],",
    "            n=self.config.group_size,",
    "            max_tokens=self.config.max_token_length,",
    "        )",
    "        scores = ScoredDataGroup()",
    '        scores["scores"] = []',
    "        for choice in completions.choices:",
    "            reward = 1.0 if choice.message.content.strip() == item[1] else -1.0",
    '            scores["scores"].append(reward)',
    "            self.percent_correct_buffer.append(max(reward, 0))",
    "        return scores, []",
    "",
    "    async def evaluate(self, *args, **kwargs):",
    "        return None",
    "",
    "    async def wandb_log(self, wandb_metrics: Optional[Dict] = None):",
    "        if wandb_metrics is None:",
    "            wandb_metrics = {}",
    "        if self.percent_correct_buffer:",
    '            wandb_metrics["train/percent_correct"] = sum(self.percent_correct_buffer) / len(self.percent_correct_buffer)',
    "        self.percent_correct_buffer = list()",
    "        await super().wandb_log(wandb_metrics)",
    "",
    "",
  );
}

function helperFunction(index: number, n: number): string[] {
  return [
    `def helper_${index}_${n}(values: List[float], scale: float = ${(n % 7) + 1}.0) -> Dict[str, float]:`,
    `    """Summarise a batch of rewards (helper ${n} of task ${index})."""`,
    "    total = 0.0",
    "    for value in values:",
    `        total += value * scale + ${n}`,
    '    return {"mean": total / max(len(values), 1), "count": float(len(values))}',
    "",
    "",
  ];
}

export function environmentSource(index: number): GeneratedFile {
  const kind = kindOf(index);
  const lines = [`"""Generated Atropos environment ${index} (${kind}) for rl-chatops benchmarks."""`, "import random", "from typing import Dict, List, Optional, Tuple", ""];
  if (kind === "attribute") lines.push("from atroposlib.envs import base", "from atroposlib.envs.base import APIServerConfig, BaseEnvConfig, ScoredDataGroup");
  else if (kind === "aliased") lines.push("from atroposlib.envs.base import BaseEnv as AtroposBaseEnv", "from atroposlib.envs.base import APIServerConfig, BaseEnvConfig, ScoredDataGroup");
  else if (kind === "indirect") {
    const base = index - (index % 10);
    lines.push(`from ${fileNameOf(base).replace(/\.py$/, "")} import ${className(base)}`, "from atroposlib.envs.base import APIServerConfig, BaseEnvConfig, ScoredDataGroup");
  } else lines.push("from atroposlib.envs.base import APIServerConfig, BaseEnv, BaseEnvConfig, ScoredDataGroup");
  lines.push("from atroposlib.type_definitions import Item", "from pydantic import Field", "", `RUN_NAME = "task-${index}-run"`, `SEED = ${index}`, "", "");

  if (kind === "helper") {
    lines.push(`class Scorer${index}:`, `    """Scores answers for task family ${index}; not an environment."""`, "", `    name = "scorer_${index}"`, "", "    def score(self, answer: str, expected: str) -> float:", "        return 1.0 if answer == expected else 0.0", "", "");
  } else {
    const config = kind === "indirect" && index % 2 === 1 ? undefined : configClass(index, lines);
    environmentClass(index, kind, config, lines);
  }
  const footer = kind === "helper" ? [] : ["", 'if __name__ == "__main__":', `    ${className(index)}.cli()`];
  for (let n = 0; lines.length + 8 + footer.length <= LINES_PER_FILE; n++) lines.push(...helperFunction(index, n));
  while (lines.length + footer.length < LINES_PER_FILE) lines.push(`# padding for task ${index}`);
  lines.push(...footer);
  return { fileName: fileNameOf(index), text: `${lines.join("\n")}\n`, kind };
}
