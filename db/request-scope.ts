// The client's request a piece of work is done for, so the runs a command creates are recorded as its effects.
import { AsyncLocalStorage } from "node:async_hooks";

interface Scope {
  id: string;
  /** Closed once the request is answered: work it left running (a run's supervision) creates nothing in its name. */
  open: boolean;
}

const scope = new AsyncLocalStorage<Scope>();

/** Runs `work` on behalf of request `id`; what it creates while the request is unanswered names the request. */
export async function runForRequest<T>(id: string, work: () => Promise<T>): Promise<T> {
  const mine: Scope = { id, open: true };
  try {
    return await scope.run(mine, work);
  } finally {
    mine.open = false;
  }
}

/** The request the current work is done for, while it is unanswered. */
export function currentRequest(): string | undefined {
  const mine = scope.getStore();
  return mine?.open ? mine.id : undefined;
}
