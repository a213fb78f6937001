// Imported for its effect: zod's mini build with the English messages its full build has by default. What every
// command reads first (the settings, the locked fields, the lease file) is checked with the mini build: the full
// build's code and its schemas, each made with its methods bound, took about 60 ms of a process's start. The command
// definitions, chat and the WandB replies, loaded only by the bot, keep the full build. Import zod/mini as a namespace
// and use its members (`z.string()`), never pass the namespace on: the bundler then keeps only what is used.
import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";

config(en());
