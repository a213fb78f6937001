// The folder a scan is asked for, opened: its real path, or the result that says why there is nothing to scan.
import { realpath, stat } from "node:fs/promises";
import { describeFsError } from "../describe-fs-error.ts";
import type { ScanResult } from "../types.ts";

/** `root`'s real path when it is a folder; otherwise an empty result with the warning saying why. */
export async function openScanRoot(root: string): Promise<{ realRoot: string } | { result: ScanResult }> {
  try {
    const realRoot = await realpath(root);
    if (!(await stat(realRoot)).isDirectory()) {
      return { result: { environments: [], warnings: [{ filePath: root, message: "not a folder; nothing scanned" }] } };
    }
    return { realRoot };
  } catch (err) {
    const code = describeFsError(err);
    const message =
      code === "ENOENT" ? "environments folder not found" : `could not open the environments folder (${code})`;
    return { result: { environments: [], warnings: [{ filePath: root, message }] } };
  }
}
