// A trajectory API's GET /status (queue_size, current_step), or undefined when it does not answer with one.

export interface ApiStatus {
  current_step: number;
  queue_size: number;
}

export async function readApiStatus(statusUrl: string): Promise<ApiStatus | undefined> {
  try {
    const res = await fetch(statusUrl, { signal: AbortSignal.timeout(1500) });
    if (!res.ok) return undefined;
    return (await res.json()) as ApiStatus;
  } catch {
    return undefined;
  }
}
