// The first thing bin/rl-chatops.js runs: on a Node older than package.json's engines (>=20.12) it says which version
// is needed and sets exit code 1, before anything that needs a newer Node is loaded (on 20.11 the bot would otherwise
// die with an internal SyntaxError about parseEnv that names no version). Written for any Node still in use.
"use strict";

/** The oldest Node this package runs on, as package.json's engines field says (a test keeps the two the same). */
var REQUIRED = "20.12";

/** True when `version` ("20.11.1", "v18.19.0") is at least REQUIRED. */
function isRecentEnough(version) {
  var have = String(version).replace(/^v/, "").split(".").map(Number);
  var need = REQUIRED.split(".").map(Number);
  for (var i = 0; i < need.length; i++) {
    if ((have[i] || 0) !== need[i]) return (have[i] || 0) > need[i];
  }
  return true;
}

/** Checks `version` (the running Node's); when too old, says what to do on stderr, sets exit code 1, returns false. */
function checkNode(version) {
  if (isRecentEnough(version)) return true;
  process.stderr.write(
    "rl-chatops needs Node.js " +
      REQUIRED +
      " or newer (package.json engines: >=" +
      REQUIRED +
      "); this is Node.js " +
      String(version).replace(/^v/, "") +
      ". Install a newer Node (https://nodejs.org, or `nvm install 22`), then run it again.\n",
  );
  process.exitCode = 1;
  return false;
}

module.exports = { REQUIRED: REQUIRED, isRecentEnough: isRecentEnough, checkNode: checkNode };
