// Writes a folder of generated environment files, and edits a few of them, for the discovery benchmarks.
import { appendFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { environmentSource, fileNameOf, type GeneratedFile } from "./environment-source.ts";

export interface GeneratedFolder {
  dir: string;
  files: number;
  /** How many files of each shape (direct BaseEnv base, aliased, indirect, helper module...). */
  kinds: Record<GeneratedFile["kind"], number>;
}

export function generateEnvironments(dir: string, count: number): GeneratedFolder {
  const kinds: GeneratedFolder["kinds"] = {
    direct: 0,
    attribute: 0,
    aliased: 0,
    indirect: 0,
    helper: 0,
    module: 0,
    init: 0,
  };
  for (let i = 0; i < count; i++) {
    const file = environmentSource(i);
    writeFileSync(path.join(dir, file.fileName), file.text);
    kinds[file.kind] += 1;
  }
  return { dir, files: count, kinds };
}

/** Changes `count` files spread over the folder (a new comment line each), different ones for each round. */
export function editEnvironments(dir: string, total: number, count: number, round: number): string[] {
  const step = Math.max(1, Math.floor(total / count));
  const edited: string[] = [];
  for (let k = 0; k < count; k++) {
    const file = path.join(dir, fileNameOf((k * step + round) % total));
    appendFileSync(file, `# edited in round ${round}\n`);
    edited.push(file);
  }
  return edited;
}
