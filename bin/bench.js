#!/usr/bin/env node
// Entry point for `npm run bench`: builds dist/ (the processes the bench starts run the build, as users do), then
// runs the benchmark's TypeScript through tsx.
import { register } from "tsx/esm/api";
import { buildDist } from "./build.js";

await buildDist({ quiet: true });
register();
await import("../bench/main.ts");
