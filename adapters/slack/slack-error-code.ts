// Slack's error code out of whatever the WebClient threw, for logs and for deciding whether to try again.
/** Slack's own error code ("not_in_channel", "invalid_blocks", ...) or the best short description. */
export function slackErrorCode(err: unknown): string {
  const data = (err as { data?: { error?: unknown } } | undefined)?.data;
  if (typeof data?.error === "string") return data.error;
  const code = (err as { code?: unknown } | undefined)?.code;
  if (typeof code === "string") return code;
  return err instanceof Error ? err.message : String(err);
}
