// Builds generated tinker-cookbook-style Python files for the cookbook discovery benchmark: recipes with a chz config
// and an entry point, recipe helper modules, and the shared modules recipes import their field types from, each padded
// to a given size in bytes with ordinary code.

export type EntryForm = "assigned" | "wrapped" | "nested" | "imported";

export interface RecipeSpec {
  /** Makes names unique and varies the fields. */
  index: number;
  /** Bytes to pad to (a file whose content is longer keeps its length). */
  bytes: number;
  /**
   * How the main block hands over the config: `cfg = chz.entrypoint(CLIConfig)`, `cli_main(chz.entrypoint(Config))`,
   * `chz.nested_entrypoint(fn)` with a local function, or with a function imported from a sibling helper module.
   */
  form: EntryForm;
  /** Settable fields of the config class. */
  fields: number;
  /** Hold the RL loop's nested chz configs (fields flattened to `parent.child`). */
  nested: boolean;
  /** A sibling helper module whose alias the config uses (`mode: Mode3 = ...`), or whose `main` an "imported" form runs. */
  sibling?: { module: string; index: number };
}

/** Field annotations and defaults as recipes write them, most common first (ints, optional strings, strs, floats, ...). */
const FIELD_KINDS: ReadonlyArray<(k: number) => string> = [
  (k) => `int = ${[32, 4, 100, 20, 0, 1][k % 6]}`,
  (k) => `str | None = ${k % 3 === 0 ? `"tag-${k}"` : "None"}`,
  (k) => `str = "${["Qwen/Qwen3-8B", "meta-llama/Llama-3.1-8B", "arithmetic", "default"][k % 4]}"`,
  (k) => `float = ${["1e-5", "0.0", "1.0", "0.95"][k % 4]}`,
  (k) => `int = ${[64, 8, 2][k % 3]}`,
  () => "int | None = None",
  (k) => `bool = ${k % 2 === 0 ? "False" : "True"}`,
  (k) => `str | None = ${k % 2 === 0 ? "None" : '"auto"'}`,
  (k) => `float = ${["3e-4", "0.1", "0.5"][k % 3]}`,
  () => "list[str] = chz.field(default_factory=list)",
];
/**
 * Fields typed from the shared modules, each in the recipes whose index `every` divides at `at` (in the cookbook: the
 * log-folder behaviour in about two thirds of the recipes, a schedule, a renderer's enum or a dict in a quarter, the
 * loss function type from outside the checkout in 6).
 */
const SHARED_FIELDS: ReadonlyArray<{ text: string; every: number; at: number[] }> = [
  { text: 'behavior_if_log_dir_exists: cli_utils.LogdirBehavior = "ask"', every: 3, at: [0, 1] },
  { text: 'lr_schedule: LRSchedule = "linear"', every: 4, at: [0] },
  { text: 'loss_fn: LossFnType = "importance_sampling"', every: 7, at: [3] },
  { text: "train_on_what: TrainOnWhat = TrainOnWhat.ALL_ASSISTANT_MESSAGES", every: 4, at: [1] },
  { text: "sandbox_backend: SandboxBackend | None = None", every: 13, at: [5] },
  { text: "extra_config: dict[str, Any] | None = None", every: 4, at: [2] },
];
const FIELD_NAMES = [
  "lora_rank",
  "renderer_name",
  "model_name",
  "learning_rate",
  "group_size",
  "max_steps",
  "compute_post_kl",
  "wandb_name",
  "kl_penalty_coef",
  "eval_tasks",
  "groups_per_batch",
  "log_path",
  "dataset_name",
  "temperature",
  "max_tokens",
  "eval_every",
  "save_every",
  "base_url",
  "num_substeps",
  "wandb_project",
  "seed",
  "load_checkpoint_path",
];

const PROMPT_WORDS = "solve the problem step by step and give the final answer in a box after thinking".split(" ");

/** Ordinary code of a recipe or helper: functions over batches, a prompt constant; `k` varies the names. */
function padding(owner: number, k: number): string {
  if (k % 5 === 4) {
    const words = Array.from({ length: 40 }, (_, w) => PROMPT_WORDS[(w + k) % PROMPT_WORDS.length]).join(" ");
    return `PROMPT_${owner}_${k} = (\n    "${words} "\n    "${words}"\n)\n\n`;
  }
  return (
    `def summarize_batch_${owner}_${k}(batch: list[dict[str, Any]], scale: float = 1.0) -> dict[str, float]:\n` +
    `    """Mean of each metric over a batch, scaled for logging."""\n` +
    `    totals: dict[str, float] = {}\n` +
    `    for row in batch:\n` +
    `        for key, value in row.items():\n` +
    `            if isinstance(value, (int, float)):\n` +
    `                totals[key] = totals.get(key, 0.0) + float(value) * scale\n` +
    `    count = max(1, len(batch))\n` +
    `    return {f"metrics_${k}/{key}": value / count for key, value in totals.items()}\n\n\n`
  );
}

function padTo(head: string, tail: string, owner: number, bytes: number): string {
  let body = "";
  for (let k = 0; Buffer.byteLength(head + body + tail) < bytes; k++) body += padding(owner, k);
  return head + body + tail;
}

function configClass(name: string, spec: RecipeSpec): string {
  const lines = [`@chz.chz`, `class ${name}:`, `    """Settings of generated recipe ${spec.index}."""`, ""];
  const shared = SHARED_FIELDS.filter((f) => f.at.includes(spec.index % f.every)).map((f) => f.text);
  const common = Math.max(1, spec.fields - shared.length - (spec.nested ? 2 : 0) - (spec.sibling ? 1 : 0));
  for (let k = 0; k < common; k++) {
    const fieldName = `${FIELD_NAMES[k % FIELD_NAMES.length]}${k >= FIELD_NAMES.length ? `_${k}` : ""}`;
    lines.push(`    ${fieldName}: ${FIELD_KINDS[(k + spec.index) % FIELD_KINDS.length]!(k + spec.index)}`);
  }
  for (const field of shared) lines.push(`    ${field}`);
  if (spec.sibling && spec.form !== "imported") lines.push(`    mode: Mode${spec.sibling.index} = "train"`);
  if (spec.nested) {
    lines.push("    stream_minibatch_config: StreamMinibatchConfig | None = None");
    lines.push("    async_config: AsyncConfig | None = None");
  }
  return `${lines.join("\n")}\n\n\n`;
}

/** A recipe module: imports, its config class, code, and the main block that hands the config to chz. */
export function recipeSource(spec: RecipeSpec, group: string): string {
  const i = spec.index;
  const imports = [
    `"""Generated recipe ${i}: trains a policy with the RL loop."""`,
    "",
    "import asyncio",
    "import logging",
    "from typing import Any",
    "",
    "import chz",
    "from tinker.types import LossFnType",
    "",
    "from tinker_cookbook import checkpoint_utils, cli_utils, model_info",
    "from tinker_cookbook.renderers import TrainOnWhat",
    "from tinker_cookbook.rl import train",
    "from tinker_cookbook.rl.train import AsyncConfig, StreamMinibatchConfig",
    "from tinker_cookbook.sandbox import SandboxBackend",
    "from tinker_cookbook.utils.lr_scheduling import LRSchedule",
  ];
  if (spec.sibling) {
    const name = spec.form === "imported" ? "main as run_main" : `Mode${spec.sibling.index}`;
    imports.push(`from tinker_cookbook.recipes.${group}.${spec.sibling.module} import ${name}`);
  }
  imports.push("", "logger = logging.getLogger(__name__)", "", "");
  const className = spec.form === "wrapped" ? "Config" : spec.form === "nested" ? "SweepConfig" : "CLIConfig";
  const head = `${imports.join("\n")}\n${spec.form === "imported" ? "" : configClass(className, spec)}`;
  let tail =
    `def build_config(cfg: ${spec.form === "imported" ? "Any" : className}) -> train.Config:\n` +
    `    """The RL loop's config from the command line's."""\n` +
    `    log_path = getattr(cfg, "log_path", None) or f"/tmp/recipe-${i}"\n` +
    `    cli_utils.check_log_dir(log_path, behavior_if_exists="ask")\n` +
    `    return train.Config(log_path=log_path, model_name=model_info.default_model(), load_checkpoint_path=checkpoint_utils.latest(log_path))\n\n\n`;
  switch (spec.form) {
    case "assigned":
      tail += `async def cli_main(cfg: CLIConfig) -> None:\n    await train.main(build_config(cfg))\n\n\nif __name__ == "__main__":\n    cli_config = chz.entrypoint(CLIConfig)\n    asyncio.run(cli_main(cli_config))\n`;
      break;
    case "wrapped":
      tail += `def cli_main(cfg: Config) -> None:\n    asyncio.run(train.main(build_config(cfg)))\n\n\nif __name__ == "__main__":\n    cli_main(chz.entrypoint(Config))\n`;
      break;
    case "nested":
      tail += `def run_sweep(cfg: SweepConfig) -> None:\n    asyncio.run(train.main(build_config(cfg)))\n\n\nif __name__ == "__main__":\n    chz.nested_entrypoint(run_sweep)\n`;
      break;
    case "imported":
      tail += `if __name__ == "__main__":\n    chz.nested_entrypoint(run_main)\n`;
      break;
  }
  return padTo(head, tail, i, spec.bytes);
}

/** A recipe's helper module: environments, data loading, grading; with `alias`, the Literal alias a recipe uses. */
export function helperSource(
  index: number,
  bytes: number,
  options: { alias?: boolean; runConfig?: boolean } = {},
): string {
  const lines = [
    `"""Generated helper module ${index}: data loading and grading for a recipe."""`,
    "",
    "from dataclasses import dataclass",
    "from typing import Any, Literal",
    "",
  ];
  if (options.runConfig) lines.push("import chz", "");
  lines.push("");
  if (options.alias) lines.push(`Mode${index} = Literal["train", "eval", "both"]`, "", "");
  lines.push(
    "@dataclass",
    `class Example${index}:`,
    "    question: str",
    "    answer: str",
    "    weight: float = 1.0",
    "",
    "",
  );
  let tail = "";
  if (options.runConfig) {
    tail =
      `@chz.chz\nclass RunConfig${index}:\n    """Settings of a run of helper ${index}."""\n\n` +
      `    model_name: str = "Qwen/Qwen3-8B"\n    batch_size: int = 64\n    learning_rate: float = 1e-4\n` +
      `    log_path: str | None = None\n    max_steps: int | None = None\n\n\n` +
      `def main(config: RunConfig${index}) -> None:\n    print(config)\n`;
  }
  return padTo(`${lines.join("\n")}\n`, tail, 10_000 + index, bytes);
}

/** A package's `__init__.py`: empty, or a few re-exports. */
export function initSource(bytes: number): string {
  return bytes === 0 ? "" : padTo('"""Generated package."""\n\n', "", 99_999, bytes);
}

/** The shared modules recipes import field types and the RL loop from, by path under tinker_cookbook/, padded to size. */
export function sharedModules(): Record<string, string> {
  const chzClass = (name: string, fields: string[]) =>
    `@chz.chz\nclass ${name}:\n    """Part of the RL loop's settings."""\n\n${fields.map((f) => `    ${f}`).join("\n")}\n\n\n`;
  const loopFields = [
    "log_path: str",
    'model_name: str = "Qwen/Qwen3-8B"',
    "load_checkpoint_path: str | None = None",
    "learning_rate: float = 1e-5",
    "max_tokens: int = 256",
    "temperature: float = 1.0",
    "lora_rank: int = 32",
    "kl_penalty_coef: float = 0.0",
    "num_substeps: int = 1",
    "eval_every: int = 20",
    "save_every: int = 20",
    'lr_schedule: LRSchedule = "linear"',
    "kl_reference_config: KLReferenceConfig | None = None",
    "stream_minibatch_config: StreamMinibatchConfig | None = None",
    "async_config: AsyncConfig | None = None",
  ];
  const header = (doc: string, imports: string[]) => `"""${doc}"""\n\n${imports.join("\n")}\n\n\n`;
  return {
    "__init__.py": padTo(header("Generated cookbook package.", ["import logging"]), "", 20_000, 1230),
    "cli_utils.py": padTo(
      header("Command-line helpers.", ["import os", "from typing import Any, Literal"]) +
        'LogdirBehavior = Literal["delete", "resume", "ask", "raise"]\n\n\n' +
        'def check_log_dir(log_dir: str, behavior_if_exists: LogdirBehavior) -> None:\n    if os.path.exists(log_dir) and behavior_if_exists == "raise":\n        raise FileExistsError(log_dir)\n\n\n',
      "",
      20_001,
      3006,
    ),
    "utils/__init__.py": '"""Generated utilities."""\n',
    "utils/lr_scheduling.py": padTo(
      header("Learning-rate schedules.", ["from typing import Any, Literal"]) +
        'LRSchedule = Literal["linear", "cosine", "constant"]\n\n\n',
      "",
      20_002,
      1528,
    ),
    "renderers/__init__.py": padTo(
      header("Renderers by name.", ["from typing import Any", "", "from .base import Message, Renderer, TrainOnWhat"]),
      "",
      20_003,
      14_951,
    ),
    "renderers/base.py": padTo(
      header("Renderer base classes.", ["from enum import StrEnum", "from typing import Any, TypedDict"]) +
        'class TrainOnWhat(StrEnum):\n    LAST_ASSISTANT_MESSAGE = "last_assistant_message"\n    ALL_ASSISTANT_MESSAGES = "all_assistant_messages"\n    ALL_MESSAGES = "all_messages"\n\n\n' +
        "class Message(TypedDict):\n    role: str\n    content: str\n\n\n" +
        "class Renderer:\n    def render(self, messages: list[Message]) -> list[int]:\n        return []\n\n\n",
      "",
      20_004,
      88_486,
    ),
    "sandbox/__init__.py": padTo(
      header("Sandboxes for tool use.", ["from typing import Literal"]) +
        'SandboxBackend = Literal["local", "docker", "modal"]\n\n\n',
      "",
      20_005,
      736,
    ),
    "rl/__init__.py": padTo(header("The RL loop.", ["from typing import Any"]), "", 20_006, 999),
    "rl/train.py": padTo(
      header("The RL training loop and its settings.", [
        "import asyncio",
        "from typing import Any",
        "",
        "import chz",
        "",
        "from tinker_cookbook.utils.lr_scheduling import LRSchedule",
      ]) +
        chzClass("KLReferenceConfig", ['base_model: str = "Qwen/Qwen3-8B"', "coef: float = 0.0"]) +
        chzClass("StreamMinibatchConfig", ["groups_per_batch: int = 64", "num_minibatches: int = 4"]) +
        chzClass("AsyncConfig", ["max_steps_off_policy: int = 2", "groups_per_batch: int = 64"]) +
        chzClass("Config", loopFields),
      "async def main(cfg: Config) -> None:\n    await asyncio.sleep(0)\n",
      20_007,
      87_387,
    ),
  };
}
