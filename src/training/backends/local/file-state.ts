// A file's identity as a rewrite changes it (or none when absent): the "written" readiness check compares two of them.
import { statSync } from "node:fs";

export function fileState(file: string): string | undefined {
  const st = statSync(file, { throwIfNoEntry: false, bigint: true });
  return st ? `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}` : undefined;
}
