// The names of rl-chatops's settings, for the .env check (load-dot-env.ts): they come with the settings' schema.
import type { SettingNames } from "./load-dot-env.ts";

export const loadSettingNames: SettingNames = async () => (await import("../config.ts")).SETTING_NAMES;
