// A minimal OpenAI-compatible /v1/chat/completions server on 127.0.0.1 for inference tests: n choices per request, behaviour chosen by model name.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The part of the model id after the last "/" picks the behaviour:
 * correct* answers the demo environments' questions right, wrong* picks another listed choice, malformed* returns
 * null or non-answer content, hang* never answers, gate* answers right once release() was called; anything else is 404.
 */
export type Behaviour = "correct" | "wrong" | "malformed" | "hang" | "gate";

export interface RecordedCompletion {
  model: string;
  authorization: string | undefined;
  n: number;
}

export interface FakeCompletions {
  /** …/v1, for --base-url or RL_TEST_BASE_URL. */
  baseUrl: string;
  requests: RecordedCompletion[];
  /** The most models that had a request open at the same moment. */
  maxModelsInFlight(): number;
  /** Models with a request open now. */
  modelsInFlight(): string[];
  /** Let gate* models' requests through, now and from now on. */
  release(): void;
  close(): Promise<void>;
}

const BEHAVIOURS: readonly Behaviour[] = ["correct", "wrong", "malformed", "hang", "gate"];

export function behaviourOf(model: string): Behaviour | undefined {
  const name = model.slice(model.lastIndexOf("/") + 1);
  return BEHAVIOURS.find((b) => name.startsWith(b));
}

/** The right answer to an arithmetic_env or parity_env question, and the listed choices. */
export function solve(prompt: string): { answer?: string; choices: string[] } {
  const choices = /^Choices: (.*)$/m.exec(prompt)?.[1]?.split(" | ") ?? [];
  const sum = /What is (-?\d+) (plus|minus|times) (-?\d+)\?/.exec(prompt);
  if (sum) {
    const a = Number(sum[1]);
    const b = Number(sum[3]);
    return { answer: String(sum[2] === "plus" ? a + b : sum[2] === "minus" ? a - b : a * b), choices };
  }
  const parity = /Is (\d+) even or odd\?/.exec(prompt);
  if (parity) return { answer: Number(parity[1]) % 2 === 0 ? "even" : "odd", choices };
  return { choices };
}

function contentFor(behaviour: Behaviour, prompt: string, index: number): string | null {
  const { answer, choices } = solve(prompt);
  switch (behaviour) {
    case "correct":
    case "gate":
      return answer ?? "I cannot tell.";
    case "wrong":
      return choices.find((c) => c !== answer) ?? "no idea";
    case "malformed":
      // Content that is not a string at all, or text with no answer in it.
      return index % 2 === 0 ? null : '```json\n{"answer": ';
    case "hang":
      return null;
  }
}

interface ChatBody {
  model?: unknown;
  n?: unknown;
  messages?: Array<{ role?: unknown; content?: unknown }>;
}

export async function startFakeCompletions(): Promise<FakeCompletions> {
  const requests: RecordedCompletion[] = [];
  const open = new Map<string, number>();
  const held: Array<() => void> = [];
  let released = false;
  let maxInFlight = 0;

  const enter = (model: string) => {
    open.set(model, (open.get(model) ?? 0) + 1);
    maxInFlight = Math.max(maxInFlight, open.size);
  };
  const leave = (model: string) => {
    const left = (open.get(model) ?? 1) - 1;
    if (left > 0) open.set(model, left);
    else open.delete(model);
  };

  const answer = (res: ServerResponse, body: ChatBody, model: string, behaviour: Behaviour) => {
    const n = typeof body.n === "number" && body.n > 0 ? Math.min(body.n, 128) : 1;
    const prompt = (body.messages ?? []).map((m) => (typeof m.content === "string" ? m.content : "")).join("\n");
    const choices = Array.from({ length: n }, (_, index) => ({
      index,
      message: { role: "assistant", content: contentFor(behaviour, prompt, index) },
      finish_reason: "stop",
    }));
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id: `chatcmpl-${requests.length}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model,
        choices,
      }),
    );
  };

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    if (req.method === "GET" && req.url === "/health") {
      res.writeHead(200).end("ok");
      return;
    }
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
      res
        .writeHead(404, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
      return;
    }
    let body: ChatBody;
    try {
      body = JSON.parse(raw) as ChatBody;
    } catch {
      res
        .writeHead(400, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { message: "body is not JSON" } }));
      return;
    }
    const model = typeof body.model === "string" ? body.model : "";
    requests.push({ model, authorization: req.headers.authorization, n: typeof body.n === "number" ? body.n : 1 });
    const behaviour = behaviourOf(model);
    if (!behaviour) {
      res
        .writeHead(404, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { message: `model ${model} not found` } }));
      return;
    }
    enter(model);
    res.on("close", () => leave(model));
    if (behaviour === "hang") return;
    if (behaviour === "gate" && !released) {
      held.push(() => answer(res, body, model, behaviour));
      return;
    }
    answer(res, body, model, behaviour);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => handle(req, res, Buffer.concat(chunks).toString("utf8")));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    maxModelsInFlight: () => maxInFlight,
    modelsInFlight: () => [...open.keys()],
    release: () => {
      released = true;
      for (const go of held.splice(0)) go();
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
