// Preloaded with `node --import` by the lazy-loading test: appends the URL of every module this process loads (ES
// modules through a loader hook, CommonJS ones from require.cache at exit, Node's own modules a CommonJS file
// requires as node:NAME when required) to the file named by RECORD_LOADED_MODULES, each after the pid of the process
// that loaded it (a background supervisor exec starts records into the same file).
import { appendFileSync } from "node:fs";
import Module, { createRequire, isBuiltin, register } from "node:module";
import { pathToFileURL } from "node:url";

const file = process.env.RECORD_LOADED_MODULES;
if (file) {
  const hook = `
    import { appendFileSync } from "node:fs";
    let file, pid;
    export function initialize(data) { file = data.file; pid = data.pid; }
    export async function load(url, context, nextLoad) {
      appendFileSync(file, pid + " " + url + "\\n");
      return nextLoad(url, context);
    }`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`, { data: { file, pid: process.pid } });
  // require() of Node's own modules goes through no loader hook and leaves nothing in require.cache.
  const load = Module._load;
  Module._load = function (request, ...rest) {
    if (isBuiltin(request)) appendFileSync(file, `${process.pid} node:${request.replace(/^node:/, "")}\n`);
    return load.call(this, request, ...rest);
  };
  const require = createRequire(import.meta.url);
  process.on("exit", () =>
    appendFileSync(
      file,
      Object.keys(require.cache)
        .map((path) => `${process.pid} ${pathToFileURL(path).href}\n`)
        .join(""),
    ),
  );
}
