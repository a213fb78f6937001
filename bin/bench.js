#!/usr/bin/env node
// Entry point for `npm run bench`: loads the benchmark's TypeScript through tsx, no build step.
import { register } from "tsx/esm/api";

register();
await import("../bench/main.ts");
