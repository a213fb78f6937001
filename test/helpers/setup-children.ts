// Set up for every test file (vitest.config.ts): the children its tests started outside a test are ended after them.
import { afterAll } from "vitest";
import { endFileChildren } from "./children.ts";

afterAll(endFileChildren);
