// The layer rule, checked by `npm run lint`: adapters -> commands -> core (src/) -> db, nothing upward, no circles.
// Inside the core, each group may import only groups on its own tier or below. The composition root (createBot in
// src/main.ts, the command line) may wire anything; the shared leaves (errors, plain types, settings) sit at the bottom.

/** The core's groups, from the top tier down; a group is a folder under src/ or a file directly in it. */
const CORE_TIERS = [
  ["services.ts"],
  ["operations.ts", "digests", "experiments", "inference", "environment-ops.ts", "environment-ops"],
  ["training", "watchdog", "retention"],
  ["budgets", "notify"],
  ["stacks"],
  ["outbox", "metrics", "values"],
  ["environments"],
  ["lease", "policy.ts", "locked-fields.ts", "approvals"],
  [
    "process",
    "config.ts",
    "stack-manifest-path.ts",
    "approval-settings.ts",
    "local-people.ts",
    "load-node-cron.ts",
    "errors.ts",
    "reply.ts",
    "log.ts",
    "redact.ts",
    "retry-transient.ts",
    "package-root.ts",
    "zod-english.ts",
    "feature-slice.ts",
  ],
];
const ROOT = "^src/((main|cli|scan-command|scan-folder)\\.ts$|cli/)";
/** Leaves every layer may use: typed errors and the neutral reply. */
const LEAVES = "^src/(errors|reply)\\.ts$";

const group = (name) => (name.endsWith(".ts") ? `src/${name.replace(".", "\\.")}$` : `src/${name}/`);
const either = (names) => `^(${names.map(group).join("|")})`;

const coreTierRules = CORE_TIERS.slice(1).map((tier, index) => ({
  name: `core-tier-${index + 2}-imports-no-higher-tier`,
  severity: "error",
  comment: `${tier.join(", ")} may not import ${CORE_TIERS.slice(0, index + 1)
    .flat()
    .join(", ")}: move the shared piece down to its owner.`,
  from: { path: either(tier) },
  to: { path: either(CORE_TIERS.slice(0, index + 1).flat()) },
}));

const everyCoreGroup = new RegExp(either(CORE_TIERS.flat()) + "|" + ROOT);

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import circle: move the piece both sides need down a level.",
      from: {},
      to: { circular: true },
    },
    {
      name: "db-imports-only-db",
      severity: "error",
      comment: "db/ is the bottom layer: it imports only db/ and the shared leaves (src/errors.ts, src/reply.ts).",
      from: { path: "^db/" },
      to: { path: "^(src|commands|adapters)/", pathNot: LEAVES },
    },
    {
      name: "core-imports-no-front-end",
      severity: "error",
      comment: "The core (src/) knows no commands and no platform: a front end belongs in adapters/.",
      from: { path: "^src/", pathNot: ROOT },
      to: { path: "^(commands|adapters)/" },
    },
    {
      name: "commands-import-no-adapter",
      severity: "error",
      comment: "commands/ returns neutral replies; platforms and front ends live in adapters/.",
      from: { path: "^commands/" },
      to: { path: "^adapters/" },
    },
    {
      name: "commands-import-no-wiring",
      severity: "error",
      comment:
        "A command gets the services it uses handed to it (commands/types.ts); only the composition root and the adapters it creates hold the whole core.",
      from: { path: "^commands/" },
      to: { path: "^src/(services|main|cli)\\.ts$" },
    },
    {
      name: "core-knows-no-platform-sdk",
      severity: "error",
      comment: "Only adapters/ import @slack/bolt and discord.js.",
      from: { path: "^(src|commands|db)/" },
      to: { path: "node_modules/(@slack|discord\\.js)" },
    },
    {
      name: "core-file-in-a-tier",
      severity: "error",
      comment: "Every file in src/ belongs to a tier: add its folder to CORE_TIERS in .dependency-cruiser.cjs.",
      from: { path: "^src/", pathNot: everyCoreGroup.source },
      to: {},
    },
    ...coreTierRules,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    includeOnly: "^(src|commands|adapters|db|node_modules/(@slack|discord\\.js))",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
    },
  },
};
