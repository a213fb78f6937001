// Wiring of inference tests: their table (the tests themselves run as commands ask for them).
import { createInferenceTestsRepo, type InferenceTestsRepo } from "../../db/inference-tests.ts";
import type { Db } from "../../db/open-database.ts";
import type { FeatureSlice } from "../feature-slice.ts";

export function wireInference(needs: {
  db: Db;
  now: () => number;
}): FeatureSlice<{ inferenceTests: InferenceTestsRepo }> {
  return { services: { inferenceTests: createInferenceTestsRepo(needs.db, needs.now) } };
}
