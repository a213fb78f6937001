// The combinations of a sweep's grid: every choice of one value per field, the first field varying slowest.
export interface GridAxis {
  field: string;
  values: unknown[];
}

export function expandGrid(axes: readonly GridAxis[]): Array<Record<string, unknown>> {
  let combos: Array<Record<string, unknown>> = [{}];
  for (const axis of axes)
    combos = combos.flatMap((combo) => axis.values.map((value) => ({ ...combo, [axis.field]: value })));
  return combos;
}

/** How many combinations the grid has, without building them (a huge grid is refused before it is expanded). */
export function gridSize(axes: readonly GridAxis[]): number {
  return axes.reduce((n, axis) => n * axis.values.length, 1);
}
