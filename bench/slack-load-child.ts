// Bench helper process, standing in for Slack: hosts the fake Slack Web API and sends signed /rl commands, timing each ack.
import { startFakeSlackApi } from "../test/fakes/slack-api.ts";
import { signedHeaders, slashCommand } from "../test/slack/slack-payloads.ts";

export interface LoadRequest {
  type: "load";
  url: string;
  text: string;
  waves: number;
  perWave: number;
  /** Time between the starts of two waves; a wave still running delays the next. */
  intervalMs: number;
}

export interface AckSample {
  /** Epoch milliseconds (fractional) when the request was sent and when its answer had arrived. */
  sentAt: number;
  doneAt: number;
  ms: number;
  status: number;
}

const botToken = process.env.BENCH_SLACK_BOT_TOKEN ?? "";
const secret = process.env.BENCH_SLACK_SIGNING_SECRET ?? "";
const clock = () => performance.timeOrigin + performance.now();
const sleep = (msec: number) => new Promise((resolve) => setTimeout(resolve, msec));

const fake = await startFakeSlackApi({ botToken });

async function sendOne(url: string, text: string): Promise<AckSample> {
  const body = new URLSearchParams(slashCommand({ text, responseUrl: fake.responseUrl() })).toString();
  const headers = signedHeaders(secret, body, "application/x-www-form-urlencoded");
  const sentAt = clock();
  let status = 0;
  try {
    const res = await fetch(url, { method: "POST", headers, body });
    await res.arrayBuffer();
    status = res.status;
  } catch {
    status = -1;
  }
  const doneAt = clock();
  return { sentAt, doneAt, ms: doneAt - sentAt, status };
}

async function load(request: LoadRequest): Promise<AckSample[]> {
  const samples: AckSample[] = [];
  const start = clock();
  for (let wave = 0; wave < request.waves; wave++) {
    const wait = start + wave * request.intervalMs - clock();
    if (wait > 0) await sleep(wait);
    samples.push(
      ...(await Promise.all(Array.from({ length: request.perWave }, () => sendOne(request.url, request.text)))),
    );
  }
  return samples;
}

process.on("message", (message: { type: string } & Partial<LoadRequest>) => {
  if (message.type === "load") {
    void load(message as LoadRequest).then(
      (samples) => process.send?.({ type: "loaded", samples, answered: fake.responses.items.length }),
      (err: unknown) => process.send?.({ type: "error", message: String(err) }),
    );
  } else if (message.type === "stop") {
    void fake.close().finally(() => process.exit(0));
  }
});
process.send?.({ type: "ready", apiUrl: fake.apiUrl });
