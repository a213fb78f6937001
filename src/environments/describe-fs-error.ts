// Names a file-system failure in a warning by its errno code (EACCES, ENOENT, ...) when there is one.
export function describeFsError(err: unknown): string {
  if (err && typeof err === "object" && "code" in err && typeof err.code === "string") return err.code;
  return err instanceof Error ? err.message : String(err);
}
