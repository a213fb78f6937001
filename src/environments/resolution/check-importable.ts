// Imports that cannot work when an environment file runs as `python FILE serve`, found without running it.
import path from "node:path";
import type { SummarizedFile } from "./resolve-symbols.ts";

/** Every top-level name of atroposlib.envs.base (NousResearch/atropos 296a0bc5), defined there or imported into it. */
const ATROPOSLIB_BASE_NAMES = new Set([
  "ABC", "APIServer", "APIServerConfig", "Any", "AutoTokenizer", "BaseEnv", "BaseEnvConfig", "BaseModel", "Cmd",
  "Dict", "ENV_NAMESPACE", "Enum", "EvalHandlingEnum", "FailedExecutionException", "Field", "Item", "List",
  "Message", "NAMESPACE_SEP", "OPENAI_NAMESPACE", "Optional", "Path", "ReasoningConfig", "ScoredDataGroup",
  "ScoredDataItem", "ServerBaseline", "ServerManager", "ServerManagerConfig", "Tuple", "TypedDict", "UUID", "Union",
  "abstractmethod", "aiohttp", "asyncio", "datetime", "extract_namespace", "generate_html", "get_double_dash_flags",
  "get_prefixed_pydantic_model", "get_std_min_max_avg", "gzip", "json", "jsonlines", "logger", "logging", "math",
  "merge_dicts", "np", "os", "parse_http_response", "random", "resolve_openai_configs", "retry", "rprint",
  "run_and_exit", "stop_after_attempt", "string", "time", "uuid", "wait_random_exponential", "wandb", "warnings",
  "yaml",
]); // prettier-ignore

/**
 * Why `python FILE serve` would fail at import, or undefined. A file run as a script has no parent package, so a
 * top-level relative import raises ImportError; so does a name atroposlib.envs.base does not have. Imports inside
 * try/except are left alone (the file may have planned for their failure).
 */
export function importBlocker(file: SummarizedFile): string | undefined {
  const fileName = path.posix.basename(file.key);
  const serve = `so python ${fileName} serve fails with ImportError before it starts`;
  for (const { binding, guarded } of file.summary.bindings) {
    if (guarded || binding.kind !== "import-from") continue;
    if (binding.module.startsWith("."))
      return `${fileName} imports ${binding.name} from ${binding.module} at top level, a relative import that has no parent package when the file runs as a script, ${serve}`;
    if (binding.module === "atroposlib.envs.base" && !ATROPOSLIB_BASE_NAMES.has(binding.name))
      return `${fileName} imports ${binding.name} from atroposlib.envs.base, which atroposlib does not define, ${serve}`;
  }
  const relativeStar = file.summary.starImports.find((module) => module.startsWith("."));
  if (relativeStar !== undefined)
    return `${fileName} imports * from ${relativeStar} at top level, a relative import that has no parent package when the file runs as a script, ${serve}`;
  return undefined;
}
