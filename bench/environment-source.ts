// Builds generated Atropos-style Python files for the discovery benchmarks: environments (their bases named directly,
// as base.BaseEnv, through an aliased import, or through another file's class), helper classes, helper modules
// without a class, and package __init__ files, each padded to a given number of lines.

export type SourceKind = "direct" | "attribute" | "aliased" | "indirect" | "helper" | "module" | "init";

export interface GeneratedFile {
  fileName: string;
  text: string;
  /** The shape of this file, so the results can say what the corpus held. */
  kind: SourceKind;
}

export interface SourceSpec {
  /** Makes names unique (Task<index>Env, option_<index>_<n>, ...) and varies the values. */
  index: number;
  kind: SourceKind;
  /** Lines to pad to (a file whose content is longer keeps its length). */
  lines: number;
  /** For "indirect": the module and class of the environment this one derives from. */
  base?: { module: string; className: string };
  /** Helper modules this file imports a function from (`from <module> import helper_<index>_0`). */
  uses?: Array<{ module: string; index: number }>;
  /** Share of the padding that is prompt text in a string constant rather than code (default 0: all code). */
  promptShare?: number;
  /** For "helper": import Atropos's environment classes anyway, as the uniform corpus does (default true). */
  helperImportsBaseEnv?: boolean;
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
export function className(index: number): string {
  return `Task${index}Env`;
}

function kindOf(index: number): SourceKind {
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
  lines.push(
    `class ${name}(BaseEnvConfig):`,
    `    """Settings of task ${index}: sampling, scoring and dataset options.`,
    "",
    `    Tuned on run ${index * 7} of the sweep.`,
    '    """',
    "",
  );
  for (let f = 0; f < count; f++) {
    const [type, value] = FIELD_TYPES[(index + f) % FIELD_TYPES.length]!;
    const bounds = type === "int" && f % 2 === 0 ? ", ge=0, le=10000" : type === "float" ? ", ge=0.0" : "";
    lines.push(
      `    option_${index}_${f}: ${type} = Field(`,
      `        default=${value(index + f)},`,
      `        description="Option ${f} of task ${index} (${type})"${bounds},`,
      "    )",
    );
  }
  lines.push(`    mode_${index}: str = "train"`, "", "");
  return name;
}

function environmentClass(
  index: number,
  kind: SourceKind,
  base: string,
  config: string | undefined,
  lines: string[],
): void {
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

/** A long prompt template, as environment and helper modules of real folders carry. */
function promptConstant(index: number, count: number, name = `PROMPT_${index}`): string[] {
  const lines = [`${name} = """You are a careful assistant working on task family ${index}.`];
  for (let n = 0; n < count; n++) lines.push(`Step ${n + 1}: think, then answer (${index}.${n}).`);
  lines.push('"""', "", "");
  return lines;
}

function environmentImports(spec: SourceSpec, lines: string[]): string {
  const { kind } = spec;
  if (kind === "attribute") {
    lines.push(
      "from atroposlib.envs import base",
      "from atroposlib.envs.base import APIServerConfig, BaseEnvConfig, ScoredDataGroup",
    );
    return "base.BaseEnv";
  }
  if (kind === "aliased") {
    lines.push(
      "from atroposlib.envs.base import BaseEnv as AtroposBaseEnv",
      "from atroposlib.envs.base import APIServerConfig, BaseEnvConfig, ScoredDataGroup",
    );
    return "AtroposBaseEnv";
  }
  if (kind === "indirect") {
    const base = spec.base ?? {
      module: fileNameOf(spec.index - (spec.index % 10)).replace(/\.py$/, ""),
      className: className(spec.index - (spec.index % 10)),
    };
    lines.push(
      `from ${base.module} import ${base.className}`,
      "from atroposlib.envs.base import APIServerConfig, BaseEnvConfig, ScoredDataGroup",
    );
    return base.className;
  }
  lines.push("from atroposlib.envs.base import APIServerConfig, BaseEnv, BaseEnvConfig, ScoredDataGroup");
  return "BaseEnv";
}

export function pythonSource(spec: SourceSpec): string {
  const { index, kind } = spec;
  if (kind === "init") {
    const lines = [`"""Package of task family ${index}."""`, ""];
    while (lines.length < spec.lines) lines.push(`# package notes for task family ${index}`);
    return `${lines.join("\n")}\n`;
  }
  const lines = [
    `"""Generated Atropos environment ${index} (${kind}) for rl-chatops benchmarks."""`,
    "import random",
    "from typing import Dict, List, Optional, Tuple",
    "",
  ];
  let base = "BaseEnv";
  if (kind === "module") lines.push("import json");
  else if (kind !== "helper") base = environmentImports(spec, lines);
  else if (spec.helperImportsBaseEnv === false) lines.push("from dataclasses import dataclass");
  else lines.push("from atroposlib.envs.base import APIServerConfig, BaseEnv, BaseEnvConfig, ScoredDataGroup");
  if (kind !== "module") lines.push("from atroposlib.type_definitions import Item", "from pydantic import Field");
  for (const used of spec.uses ?? []) lines.push(`from ${used.module} import helper_${used.index}_0`);
  lines.push("", `RUN_NAME = "task-${index}-run"`, `SEED = ${index}`, "", "");

  if (kind === "module") {
    lines.push(...promptConstant(index, Math.min(40, Math.floor(spec.lines / 10))));
  } else if (kind === "helper") {
    lines.push(
      `class Scorer${index}:`,
      `    """Scores answers for task family ${index}; not an environment."""`,
      "",
      `    name = "scorer_${index}"`,
      "",
      "    def score(self, answer: str, expected: str) -> float:",
      "        return 1.0 if answer == expected else 0.0",
      "",
      "",
    );
  } else {
    const config = kind === "indirect" && index % 2 === 1 ? undefined : configClass(index, lines);
    environmentClass(index, kind, base, config, lines);
  }
  const footer =
    kind === "helper" || kind === "module" ? [] : ["", 'if __name__ == "__main__":', `    ${className(index)}.cli()`];
  const prompt = Math.floor((spec.promptShare ?? 0) * (spec.lines - lines.length - footer.length)) - 4;
  if (prompt > 0) lines.push(...promptConstant(index, prompt, `INSTRUCTIONS_${index}`));
  for (let n = 0; lines.length + 8 + footer.length <= spec.lines; n++) lines.push(...helperFunction(index, n));
  while (lines.length + footer.length < spec.lines) lines.push(`# padding for task ${index}`);
  lines.push(...footer);
  return `${lines.join("\n")}\n`;
}

/** File `index` of the uniform corpus: 300 lines, its kind by its last digit. */
export function environmentSource(index: number): GeneratedFile {
  const kind = kindOf(index);
  return { fileName: fileNameOf(index), text: pythonSource({ index, kind, lines: LINES_PER_FILE }), kind };
}
