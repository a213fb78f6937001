// /rl keys: which API keys training needs and which are missing (names only, never values).
import { z } from "zod";
import { defineCommand } from "./types.ts";

export default defineCommand({
  name: "keys",
  summary: "Check which API keys are missing",
  description:
    "Check which API keys training needs (TINKER_API_KEY, WANDB_API_KEY) and list the names of those not set. Never returns key values.",
  toolName: "rl_check_api_keys",
  args: z.object({}),
  permission: "read",
  uses: ["env"],
  async run(_args, ctx) {
    const r = ctx.services.env.missingKeys();
    const text = r.missing.length
      ? `Missing: ${r.missing.join(", ")}. Set them in the bot's environment (see .env.example).${r.demo_stack ? " The bundled demo stack trains without them." : ""}`
      : "All keys are set.";
    return { title: "API keys", text, data: r };
  },
});
