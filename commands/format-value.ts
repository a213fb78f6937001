// Short renderings of config values and durations, for command replies; they live with the values in the core.
export { formatDuration, formatValue } from "../src/values/format-value.ts";
