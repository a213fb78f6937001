// Discovery's threads are stopped between two parses, never in the middle of one: Worker.terminate() during a
// tree-sitter parse aborts the whole process ("terminate called after throwing an instance of 'Napi::Error'").
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/config.ts";

const CHILD = path.join(PACKAGE_ROOT, "test", "environments", "stop-helpers-child.ts");

describe("stopping discovery's helper threads", () => {
  it("stops a helper that is parsing without aborting the process, and parses what it owed here", async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const child = await execa(process.execPath, ["--import", "tsx", CHILD, "pool"], {
        cwd: PACKAGE_ROOT,
        reject: false,
        timeout: 60_000,
      });
      expect({ exitCode: child.exitCode, signal: child.signal, stderr: child.stderr }).toEqual({
        exitCode: 0,
        signal: undefined,
        stderr: "",
      });
      expect(child.stdout).toBe("released; 4 of 4 parsed");
    }
  }, 180_000);

  it("closes the bot's discovery thread at any moment of a scan without aborting the process", async () => {
    const child = await execa(process.execPath, ["--import", "tsx", CHILD, "scanner"], {
      cwd: PACKAGE_ROOT,
      reject: false,
      timeout: 120_000,
    });
    expect({ exitCode: child.exitCode, signal: child.signal, stderr: child.stderr }).toEqual({
      exitCode: 0,
      signal: undefined,
      stderr: "",
    });
    expect(child.stdout).toBe("closed 7 scans");
  }, 180_000);
});
