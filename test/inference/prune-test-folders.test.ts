import { mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { pruneTestFolders } from "../../src/inference/prune-test-folders.ts";
import { tempDir } from "../helpers/test-services.ts";

describe("pruneTestFolders", () => {
  it("keeps the newest folders and removes the rest with their files", () => {
    const root = tempDir();
    for (let i = 0; i < 5; i++) {
      const dir = path.join(root, `t${i}`);
      mkdirSync(dir);
      writeFileSync(path.join(dir, "out.jsonl"), "{}\n");
      utimesSync(dir, 1000 + i, 1000 + i);
    }
    writeFileSync(path.join(root, "stray-file"), "not a folder");
    expect(pruneTestFolders(root, 2).sort()).toEqual(["t0", "t1", "t2"]);
    expect(readdirSync(root).sort()).toEqual(["stray-file", "t3", "t4"]);
    expect(pruneTestFolders(path.join(root, "missing"), 2)).toEqual([]);
  });
});
