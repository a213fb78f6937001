// A manifest's dotted key path into a JSON record: `reward.mean`, `data.critic/score/mean`, `prompt.0.content`. A key that itself holds a
// dot (`train.loss` written flat) is found too: at each level the longest key the path starts with is taken first.

export function valueAt(record: unknown, keyPath: string): unknown {
  // An index into a list: `prompt.0.content` (a chat's first message).
  if (Array.isArray(record)) {
    const [index, ...rest] = keyPath.split(".");
    const item = /^\d+$/.test(index!) ? record[Number(index)] : undefined;
    return rest.length === 0 || item === undefined ? item : valueAt(item, rest.join("."));
  }
  if (record === null || typeof record !== "object") return undefined;
  const object = record as Record<string, unknown>;
  if (Object.hasOwn(object, keyPath)) return object[keyPath];
  const parts = keyPath.split(".");
  for (let take = parts.length - 1; take >= 1; take--) {
    const key = parts.slice(0, take).join(".");
    if (!Object.hasOwn(object, key)) continue;
    const found = valueAt(object[key], parts.slice(take).join("."));
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A finite number at the path, or undefined. */
export function numberAt(record: unknown, keyPath: string): number | undefined {
  const value = valueAt(record, keyPath);
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
