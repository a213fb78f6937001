// Cleans a chart's points for drawing: finite values only, in step order, and at most a given number of them.
export interface ChartPoint {
  x: number;
  y: number;
}

/** Keeps the first and last point and, per bucket, the lowest and highest: spikes survive, the path stays short. */
export function downsamplePoints(points: readonly ChartPoint[], maxPoints: number): ChartPoint[] {
  const limit = Math.max(4, Math.floor(maxPoints));
  if (points.length <= limit) return [...points];
  const first = points[0];
  const last = points[points.length - 1];
  if (!first || !last) return [];
  const inner = points.length - 2;
  const buckets = Math.floor((limit - 2) / 2);
  const out: ChartPoint[] = [first];
  for (let b = 0; b < buckets; b++) {
    const start = 1 + Math.floor((b * inner) / buckets);
    const end = 1 + Math.floor(((b + 1) * inner) / buckets);
    let lo = start;
    let hi = start;
    for (let i = start + 1; i < end; i++) {
      if ((points[i]?.y ?? 0) < (points[lo]?.y ?? 0)) lo = i;
      if ((points[i]?.y ?? 0) > (points[hi]?.y ?? 0)) hi = i;
    }
    // In step order, so the line does not double back inside a bucket.
    for (const i of lo === hi ? [lo] : [Math.min(lo, hi), Math.max(lo, hi)]) {
      const p = points[i];
      if (p && i < end) out.push(p);
    }
  }
  out.push(last);
  return out;
}

/** Finite points sorted by x (stable, so equal steps keep their order), downsampled to `maxPoints`. */
export function prepareChartPoints(points: readonly ChartPoint[], maxPoints: number): ChartPoint[] {
  const finite = points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y)).map((p) => ({ x: p.x, y: p.y }));
  finite.sort((a, b) => a.x - b.x);
  return downsamplePoints(finite, maxPoints);
}
