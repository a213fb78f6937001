// node --import this file: the full command's module (dist/cli.js) is held while loading, as on a machine too busy to
// load it quickly, until the test lets it go. RL_TEST_STALL_DIR names the folder: "stalled" appears there when the load
// is held, and the test creates "release" to let it go on.
import { register } from "node:module";

register(new URL("./stall-import-hooks.mjs", import.meta.url), { data: { dir: process.env.RL_TEST_STALL_DIR } });
