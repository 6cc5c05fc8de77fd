import { escapeForPage } from "./html-page.js";
import { type NiceTicks, percentTick } from "./nice-ticks.js";

/** What a legend entry looks like: a filled swatch (band, bar) or a stroke (line). */
export type LegendMark = "band" | "bar" | "line";

const e = escapeForPage;

/**
 * A chart with its legend in the page flow above the plot, never inside it: drawn in the SVG, a legend
 * sits on whatever data falls in its corner, and at phone width it shrinks with the plot until it cannot
 * be read. The plot scrolls sideways below a readable width instead of shrinking its labels away.
 */
export function chartFigure(
  id: string,
  legend: readonly (readonly [LegendMark, string])[],
  svg: string,
): string {
  const entries = legend
    .map(([mark, label]) => `<li><span class="swatch ${mark}"></span>${e(label)}</li>`)
    .join("");
  return `<figure class="chart" id="${id}-figure">${entries === "" ? "" : `<ul class="legend" id="${id}-legend">${entries}</ul>`}<div class="plot">${svg}</div></figure>`;
}

/** Horizontal grid lines with their percentage labels, one per nice tick (see {@link niceTicks}). */
export function percentGrid(
  axis: NiceTicks,
  y: (value: number) => number,
  left: number,
  right: number,
): string {
  const f = (value: number) => value.toFixed(1);
  return axis.ticks
    .map(
      (value) =>
        `<line class="grid" x1="${left}" x2="${right}" y1="${f(y(value))}" y2="${f(y(value))}"/><text class="tick" x="${left - 6}" y="${f(y(value) + 4)}" text-anchor="end">${percentTick(value, axis.step)}</text>`,
    )
    .join("");
}

/** The style of {@link chartFigure}, added to each report page's own. */
export const chartCss = `
.chart { margin: 0; }
.chart .plot { overflow-x: auto; }
.chart .plot svg { min-width: 560px; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; margin: 0 0 6px; padding: 0; list-style: none; color: var(--muted); font-size: 12px; }
.legend li { display: flex; align-items: center; gap: 6px; }
.swatch { display: inline-block; width: 14px; height: 10px; }
.swatch.band { background: var(--band); opacity: .55; }
.swatch.bar { background: var(--bar); opacity: .35; }
.swatch.line { height: 2px; background: var(--accent); }
`;
