// The refusal of a stack manifest made from a good one by an edit, as one message: the checks' tests read it.
/* eslint-disable @typescript-eslint/no-explicit-any -- an edit changes a manifest as the plain YAML object it is */
import { parseManifest } from "../../src/stacks/manifest/load-manifest.ts";

export function refusalOf(good: object, edit: (m: Record<string, any>) => void): string {
  const manifest = structuredClone(good) as Record<string, any>;
  edit(manifest);
  try {
    parseManifest(manifest, "stack.yaml");
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error("the manifest was accepted");
}
