/** Ticks for an axis from 0 that a reader can add up at a glance. */
export interface NiceTicks {
  /** The distance between two ticks: 1, 2, 2.5 or 5 times a power of ten. */
  readonly step: number;
  /** The axis end: the first tick at or above the highest value. */
  readonly top: number;
  /** From 0 to `top` inclusive, `step` apart. */
  readonly ticks: readonly number[];
}

// 2.5 keeps quarters (25%, 50%…) available; 3, 4, 6… would put ticks on 17.5%-style values.
const mantissas = [1, 2, 2.5, 5, 10] as const;
const maxTarget = 50;

/**
 * Ticks from 0 covering `max` with about `target` intervals, each step 1, 2, 2.5 or 5 × 10^k, so every
 * tick is a round number (on a rate axis: 10%, 25%, 2%…). `floor` keeps a near-zero maximum from
 * stretching noise over the whole plot; `ceiling` caps the axis (a rate never passes 100%). A maximum
 * that is not a finite number is treated as `floor`: a chart of bad numbers still gets a readable axis.
 * `target` is 1 to 50; anything else falls back to 5.
 */
export function niceTicks(
  max: number,
  options: { target?: number; floor?: number; ceiling?: number } = {},
): NiceTicks {
  // Bounded: a target that is not a small positive number would ask for an axis nobody could draw.
  const target =
    options.target !== undefined && Number.isFinite(options.target)
      ? Math.min(maxTarget, Math.max(1, Math.floor(options.target)))
      : 5;
  const floor = options.floor ?? 0;
  const ceiling = options.ceiling ?? Number.POSITIVE_INFINITY;
  const wanted = Math.min(ceiling, Math.max(floor, Number.isFinite(max) ? max : floor));
  // Nothing to cover (all zero, no floor): one unit step keeps the axis from collapsing to a point.
  if (!(wanted > 0)) return { step: 1, top: 1, ticks: [0, 1] };
  const raw = wanted / target;
  const power = 10 ** Math.floor(Math.log10(raw));
  const mantissa = mantissas.find((m) => m * power >= raw * (1 - 1e-9)) ?? 10;
  const step = round(mantissa * power);
  const count = Math.ceil(round(wanted / step));
  const ticks = Array.from({ length: count + 1 }, (_, index) => round(index * step));
  return { step, top: ticks.at(-1) ?? step, ticks };
}

/** A tick as a percentage with just the decimals its step needs: 25%, 2.5%, never 17.50%. */
export function percentTick(value: number, step: number): string {
  const percentStep = step * 100;
  let decimals = 0;
  while (decimals < 6 && Math.abs(round(percentStep * 10 ** decimals) % 1) > 1e-9) decimals += 1;
  return `${round(value * 100).toFixed(decimals)}%`;
}

// Float steps (0.1 × 3 = 0.30000000000000004) would leak into labels and tick positions.
const round = (value: number) => Number(value.toPrecision(12));
