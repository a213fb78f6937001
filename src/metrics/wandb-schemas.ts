// Shapes of the WandB answers the client relies on, checked at the boundary so a changed API fails loudly.
import { z } from "zod";
import { RlError } from "../errors.ts";

export const viewerAnswer = z.object({
  viewer: z.object({ entity: z.string().nullish() }).nullish(),
});

const runNode = z.object({
  id: z.string(),
  name: z.string(),
  displayName: z.string().nullish(),
  state: z.string().nullish(),
  group: z.string().nullish(),
  createdAt: z.string().nullish(),
  heartbeatAt: z.string().nullish(),
  summaryMetrics: z.string().nullish(),
  // A JSON scalar, not an object type: WandB sends {lastStep, keys, ...} or null.
  historyKeys: z.unknown(),
});
export type RunNode = z.infer<typeof runNode>;

export const runsAnswer = z.object({
  project: z
    .object({
      runs: z.object({
        edges: z.array(z.object({ node: runNode, cursor: z.string().nullish() })),
        pageInfo: z.object({ endCursor: z.string().nullish(), hasNextPage: z.boolean() }),
      }),
    })
    .nullish(),
});

export const historyAnswer = z.object({
  project: z
    .object({
      run: z.object({ sampledHistory: z.array(z.array(z.record(z.string(), z.unknown()))).nullish() }).nullish(),
    })
    .nullish(),
});

/** Parse data against a schema; a mismatch is WandB's doing, so it is UPSTREAM and names the operation. */
export function parseAnswer<T>(schema: z.ZodType<T>, data: unknown, operation: string): T {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  throw new RlError("UPSTREAM", `WandB's answer to ${operation} has an unexpected shape`, {
    cause: result.error,
    details: { operation, issues: result.error.issues.slice(0, 5).map((i) => `${i.path.join(".")}: ${i.message}`) },
  });
}
