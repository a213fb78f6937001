// A helper thread of discovery: parses the files a scanner hands it, so a large folder is parsed on several cores.
import { parentPort } from "node:worker_threads";
import { analysePythonFile } from "./analyse-python-file.ts";
import { loadPythonParser } from "./load-python-parser.ts";
import type { ParseRequest, ParseResponse } from "./parse-pool.ts";

const port = parentPort;
if (!port) throw new Error("parse-worker.ts runs as a worker thread");
const parser = loadPythonParser();
port.on("message", (request: ParseRequest) => {
  void parser.then(
    (loaded) => port.postMessage({ id: request.id, outcome: analysePythonFile(loaded, request.bytes) } satisfies ParseResponse),
    (err: unknown) => port.postMessage({ id: request.id, failed: err instanceof Error ? err.message : String(err) } satisfies ParseResponse),
  );
});
