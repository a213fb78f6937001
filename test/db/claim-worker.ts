// A second process for the concurrency test: opens the database file itself, then, the moment the go file appears,
// claims every id it was given and prints the ones it won.
import { existsSync } from "node:fs";
import { createConfirmationsRepo } from "../../db/confirmations.ts";
import { openDatabase } from "../../db/open-database.ts";

const [file, goFile, who, ...ids] = process.argv.slice(2);
if (!file || !goFile || !who) throw new Error("usage: claim-worker FILE GO_FILE WHO ID...");
const db = openDatabase(file);
const repo = createConfirmationsRepo(db, { ttlMs: 60_000, redact: (s) => s });
process.stdout.write("ready\n");
// Spin rather than sleep, so both processes start claiming within microseconds of each other.
while (!existsSync(goFile)) {
  // waiting for the go
}
const won = ids.filter((id) => repo.claim(id, "confirmed", { id: who }));
process.stdout.write(`${JSON.stringify(won)}\n`);
db.close();
