// A helper thread of discovery: parses the files a scanner hands it, so a large folder is parsed on several cores.
import { parentPort } from "node:worker_threads";
import { analysePythonFile } from "../python/analyse-python-file.ts";
import { pythonParser } from "./load-python-parser.ts";
import type { ParseRequest, ParseResponse } from "./parse-pool.ts";
import { isStopRequest, type StopRequest } from "./spawn-worker.ts";

const port = parentPort;
if (!port) throw new Error("parse-worker.ts runs as a worker thread");
port.on("message", (request: ParseRequest | StopRequest) => {
  // Between two parses: with its port closed, nothing keeps this thread and it ends.
  if (isStopRequest(request)) return port.close();
  let response: ParseResponse;
  try {
    response = { id: request.id, outcome: analysePythonFile(pythonParser(), request.bytes) };
  } catch (err) {
    // The scanner parses this file in its own thread instead, where the same failure is reported as the scan's.
    response = { id: request.id, failed: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(response);
});
// The parser loads while the scanner is still listing and reading, not when the first file arrives; once it has, this
// helper can be handed a full queue. If it cannot load, each request above answers so.
try {
  pythonParser();
  port.postMessage({ ready: true } satisfies ParseResponse);
} catch {
  // answered per request
}
