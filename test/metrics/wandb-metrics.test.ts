// Summary reading (real keys, prefixed environment metrics), the app URL rule and the TTL cache's clock.
import { describe, expect, it } from "vitest";
import { createTtlCache } from "../../src/metrics/ttl-cache.ts";
import { metricsFromSummary, parseSummaryMetrics, pickMetric } from "../../src/metrics/wandb-metrics.ts";
import { escapeRegex, isTrainerRunOf } from "../../src/metrics/wandb-queries.ts";
import { buildWandbRunUrl, resolveWandbAppUrl } from "../../src/metrics/wandb-url.ts";

describe("pickMetric", () => {
  it("prefers the exact key, then a '{prefix}_key' form", () => {
    expect(
      pickMetric({ "train/percent_correct": 0.3, "gsm8k_train/percent_correct": 0.9 }, "train/percent_correct"),
    ).toBe(0.3);
    expect(pickMetric({ "gsm8k_train/percent_correct": 0.9 }, "train/percent_correct")).toBe(0.9);
    expect(pickMetric({ b_x: 2, a_x: 1 }, "x")).toBe(1);
  });

  it("ignores non-numbers and keys that only end with the name", () => {
    expect(pickMetric({ "eval/percent_correct": "n/a" }, "eval/percent_correct")).toBeNull();
    expect(pickMetric({ "xtrain/loss": 1, "_train/loss": Number.NaN }, "train/loss")).toBeNull();
    expect(pickMetric({}, "train/loss")).toBeNull();
  });
});

describe("metricsFromSummary", () => {
  it("reads reward/mean, not the seed's train/reward_mean", () => {
    expect(metricsFromSummary({ _step: 7, "train/reward_mean": 0.9, "reward/mean": 0.4, "train/loss": 2 })).toEqual({
      step: 7,
      rewardMean: 0.4,
      loss: 2,
      percentCorrect: null,
      evalPercentCorrect: null,
    });
  });

  it("reads percent correct from the environment summary first, prefixed or not", () => {
    const m = metricsFromSummary({ "train/percent_correct": 0.1 }, { "math_eval/percent_correct": 0.7 });
    expect(m.percentCorrect).toBe(0.1);
    expect(m.evalPercentCorrect).toBe(0.7);
  });
});

describe("parseSummaryMetrics", () => {
  it("survives Python's bare NaN and Infinity and garbage", () => {
    expect(parseSummaryMetrics('{"a": NaN, "b": 1, "c": -Infinity, "d": [Infinity]}')).toEqual({
      a: null,
      b: 1,
      c: null,
      d: [null],
    });
    expect(parseSummaryMetrics("not json")).toEqual({});
    expect(parseSummaryMetrics("[1]")).toEqual({});
    expect(parseSummaryMetrics(null)).toEqual({});
  });
});

describe("queries helpers", () => {
  it("escapes regex metacharacters so the name matches literally", () => {
    const name = "a.b*c+(d)[e]{f}^$|?\\";
    expect(new RegExp(`^${escapeRegex(name)}-trainer`).test(`${name}-trainer-x`)).toBe(true);
    expect(new RegExp(`^${escapeRegex("a.b")}`).test("aXb")).toBe(false);
  });

  it("recognises a trainer run of a name exactly", () => {
    expect(isTrainerRunOf("n-trainer-abc", "n")).toBe(true);
    expect(isTrainerRunOf("n-trainer", "n")).toBe(true);
    expect(isTrainerRunOf("n-trainerx", "n")).toBe(false);
    expect(isTrainerRunOf("n-trainer-b-trainer-c", "n-trainer-b")).toBe(true);
  });
});

describe("run URL rule", () => {
  it("derives the app from the API base URL unless WANDB_APP_URL is set", () => {
    expect(resolveWandbAppUrl("https://api.wandb.ai")).toBe("https://wandb.ai");
    expect(resolveWandbAppUrl("https://api.acme.internal")).toBe("https://app.acme.internal");
    expect(resolveWandbAppUrl("https://wandb.acme.internal/")).toBe("https://wandb.acme.internal");
    expect(resolveWandbAppUrl("https://api.wandb.ai", " https://custom.app ")).toBe("https://custom.app");
    expect(buildWandbRunUrl("https://wandb.ai/", "my team", "p/q", "id1")).toBe(
      "https://wandb.ai/my%20team/p%2Fq/runs/id1",
    );
  });
});

describe("createTtlCache", () => {
  it("forgets a value once ttlMs has passed on the injected clock", () => {
    let now = 1_000;
    const cache = createTtlCache<string>({ ttlMs: 60_000, now: () => now });
    cache.set("run", "answer");
    now += 59_999;
    expect(cache.get("run")).toBe("answer");
    now += 1;
    expect(cache.get("run")).toBeUndefined();
  });

  it("restarts the clock on set and supports delete and clear", () => {
    let now = 0;
    const cache = createTtlCache<number>({ ttlMs: 10, now: () => now });
    cache.set("a", 1);
    now = 8;
    cache.set("a", 2);
    cache.set("b", 3);
    now = 15;
    expect(cache.get("a")).toBe(2);
    cache.delete("a");
    expect(cache.get("a")).toBeUndefined();
    cache.clear();
    expect(cache.get("b")).toBeUndefined();
  });
});
