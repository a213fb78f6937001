// A helper thread of discovery: takes files from the batches a scanner shares with it (parse-batch.ts) and parses
// them, so a large folder is parsed on several cores.
import { parentPort } from "node:worker_threads";
import { analysePythonFile } from "../python/analyse-python-file.ts";
import { Claims, fileOf, type BatchRequest, type BatchResponse } from "./parse-batch.ts";
import { pythonParser } from "./load-python-parser.ts";
import { isStopRequest, type StopRequest } from "./spawn-worker.ts";

const port = parentPort;
if (!port) throw new Error("parse-worker.ts runs as a worker thread");

/**
 * The parser loads while the scanner is still listing and reading, not when the first batch arrives. A helper that
 * cannot load it takes no files: the scanner's thread parses them all.
 */
const hasParser = ((): boolean => {
  try {
    pythonParser();
    return true;
  } catch {
    return false;
  }
})();

/** Takes and parses the batch's files until none is left or helpers are told to stop, answering each. */
function parseBatch(request: BatchRequest): void {
  if (!hasParser) return;
  const claims = new Claims(request.claims, request.ends.length);
  while (!claims.helpersStopped) {
    const index = claims.take(request.helper);
    if (index === undefined) return;
    let response: BatchResponse;
    try {
      response = { batch: request.batch, index, outcome: analysePythonFile(pythonParser(), fileOf(request, index)) };
    } catch (err) {
      // The scanner parses this file in its own thread instead, where the same failure is reported as the scan's.
      response = { batch: request.batch, index, failed: err instanceof Error ? err.message : String(err) };
    }
    port!.postMessage(response);
  }
}

port.on("message", (request: BatchRequest | StopRequest) => {
  // Between two batches: with its port closed, nothing keeps this thread and it ends.
  if (isStopRequest(request)) return port.close();
  parseBatch(request);
});
