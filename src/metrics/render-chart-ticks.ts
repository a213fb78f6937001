// Axis arithmetic for the chart: padded ranges, "nice" tick values (1, 2, 5 x 10^k) and short labels for them.

/** The smallest and largest of the values, by a loop: spreading thousands of values into Math.min overflows the stack. */
export function extent(values: readonly number[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

const clampFinite = (v: number): number => Math.max(-Number.MAX_VALUE, Math.min(Number.MAX_VALUE, v));

/**
 * A range with room around the data; a single value gets a range of its own (at least `minPad` either side)
 * so it is drawn mid-axis.
 */
export function paddedRange(lo: number, hi: number, fraction: number, minPad = 0): [number, number] {
  if (lo === hi) {
    const pad = Math.max(Math.abs(lo) * 0.1, minPad) || 1;
    return [clampFinite(lo - pad), clampFinite(hi + pad)];
  }
  // Halves first, so the span of two huge values of opposite sign does not overflow to Infinity.
  const pad = (hi / 2 - lo / 2) * (2 * fraction);
  return [clampFinite(lo - pad), clampFinite(hi + pad)];
}

/** The round step nearest `raw` (rounding, not ceiling: a range of 0.8 in 4 steps gets 0.2, not 0.5). */
function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = raw / power;
  return (unit < 1.5 ? 1 : unit < 3 ? 2 : unit < 7 ? 5 : 10) * power;
}

export interface Ticks {
  values: number[];
  step: number;
}

/** About `target` round values inside [lo, hi]; whole numbers only when `integer` (training steps). */
export function niceTicks(lo: number, hi: number, target: number, integer = false): Ticks {
  let step = niceStep(hi / target - lo / target);
  if (integer) step = Math.max(1, Math.round(step));
  const values: number[] = [];
  if (Number.isFinite(step) && step > 0) {
    const first = Math.ceil(lo / step) * step;
    for (let i = 0; i < 50; i++) {
      // On halves, so the last tick of a range near Number.MAX_VALUE does not overflow.
      const v = (first / 2 + i * (step / 2)) * 2;
      if (v > hi + step * 1e-9) break;
      // Float noise (0.30000000000000004) and ranges too narrow for the magnitude would give repeats.
      const clean = Number(v.toPrecision(12));
      if (values.at(-1) !== clean) values.push(clean);
    }
  }
  return values.length > 0 ? { values, step } : { values: [lo, hi], step: Math.abs(hi / 2 - lo / 2) * 2 || 1 };
}

const UNITS: ReadonlyArray<[number, string]> = [
  [1e12, "T"],
  [1e9, "B"],
  [1e6, "M"],
  [1e3, "k"],
];

const trimZeros = (s: string): string => (s.includes(".") ? s.replace(/\.?0+$/, "") : s);
const decimalsFor = (step: number): number => Math.min(6, Math.max(0, Math.ceil(-Math.log10(step) - 1e-9)));

/** A tick label with as many decimals as the step needs: "0.25", "1.5k", "3M", "2e+20". */
export function formatTick(value: number, step: number): string {
  const abs = Math.abs(value);
  if (abs < step * 1e-6) return "0";
  if (abs >= 1e15 || step < 1e-6) return value.toExponential(2).replace(/\.?0+e/, "e");
  for (const [unit, suffix] of UNITS) {
    if (abs >= unit && abs >= 1e4 && step >= unit / 1000)
      return `${trimZeros((value / unit).toFixed(decimalsFor(step / unit)))}${suffix}`;
  }
  return value.toFixed(decimalsFor(step));
}

/** A data value in four significant digits, for the "last" caption. */
export function formatValue(value: number): string {
  const abs = Math.abs(value);
  if (abs !== 0 && (abs >= 1e6 || abs < 1e-3)) return value.toExponential(2).replace(/\.?0+e/, "e");
  return String(Number(value.toPrecision(4)));
}
