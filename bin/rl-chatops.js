#!/usr/bin/env node
// Entry point for the `rl-chatops` command and `npm start`: loads the TypeScript sources through tsx, no build step.
import { register } from "tsx/esm/api";

register();
await import("../src/cli.ts");
