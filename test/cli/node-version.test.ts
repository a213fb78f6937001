// A Node older than package.json's engines is told which version is needed, and exits 1, before bin/rl-chatops.js
// loads anything that needs a newer one: the real entry point run by a real Node that reports an older version.
import { readFileSync } from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/config.ts";
import { trackProcess } from "../helpers/children.ts";
import { CLI } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";

const require = (await import("node:module")).createRequire(import.meta.url);
const check = require("../../bin/check-node.cjs") as { REQUIRED: string; isRecentEnough(v: string): boolean };

/** bin/rl-chatops.js run by this Node made to report `version`, with `args`; what it printed and how it exited. */
async function runAs(version: string, args: string[]) {
  const script = `Object.defineProperty(process.versions, "node", { value: ${JSON.stringify(version)} });
process.argv = [process.argv[0], ${JSON.stringify(CLI)}, ...${JSON.stringify(args)}];
process.on("exit", () => process.stderr.write("loaded: " + JSON.stringify(Object.keys(require.cache).map((f) => require("node:path").basename(f))) + "\\n"));
require(${JSON.stringify(CLI)});`;
  const child = execa(process.execPath, ["-e", script], { cwd: tempDir(), input: "", reject: false });
  trackProcess(child);
  const out = await child;
  return { code: out.exitCode, stdout: out.stdout, stderr: out.stderr };
}

describe("the Node version check", () => {
  it("needs what package.json's engines field says, compared as versions", () => {
    const engines = (
      JSON.parse(readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as { engines: { node: string } }
    ).engines.node;
    expect(engines).toBe(`>=${check.REQUIRED}`);
    expect(["20.11.1", "v18.19.0", "19.99.0", "8.0.0"].filter((v) => check.isRecentEnough(v))).toEqual([]);
    expect(["20.12.0", "v20.20.2", "21.0.0", "22.11.0", "100.1.0"].every((v) => check.isRecentEnough(v))).toBe(true);
  });

  it("on Node 20.11 and 18, says which version is needed and exits 1, having loaded nothing but the check", async () => {
    for (const version of ["20.11.1", "18.19.0"]) {
      const out = await runAs(version, []);
      expect(out.code, out.stderr).toBe(1);
      expect(out.stdout).toBe("");
      const [message, loaded] = out.stderr.split("\n");
      expect(message).toBe(
        `rl-chatops needs Node.js 20.12 or newer (package.json engines: >=20.12); this is Node.js ${version}. Install a newer Node (https://nodejs.org, or \`nvm install 22\`), then run it again.`,
      );
      expect(JSON.parse(loaded!.replace("loaded: ", ""))).toEqual(["rl-chatops.js", "check-node.cjs"]);
    }
  });

  it("on Node 20.12 goes on to the command", async () => {
    const out = await runAs("20.12.0", ["--help"]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain("rl-chatops");
  });
});
