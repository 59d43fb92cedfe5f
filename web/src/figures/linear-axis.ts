// A linear axis under bars and charts: round ticks from a fixed pool, shown or hidden.

import { h, setClass, setHidden, setStyle, setText } from '../dom/dom';
import { percent, type Formatter } from './parts';

/** About five round tick values from 0 to max (1, 2 or 5 × a power of ten apart). */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0)) return [0];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= rough) ?? 10 * power;
  const ticks: number[] = [];
  for (let index = 0; index * step <= max * 1.0001; index += 1) ticks.push(index * step);
  return ticks;
}

/** The most ticks niceTicks gives for a count of 5 (a step of 1 × 10^k over up to 5 × 10^k, and 0). */
const MAX_TICKS = 11;

/** A linear axis under stacked bars; ticks are a fixed pool, shown or hidden. */
export function linearAxis(
  format: Formatter,
  tickValues: (max: number, count: number) => number[] = niceTicks,
): { element: HTMLElement; update(max: number, narrow: boolean): void } {
  const ticks = Array.from({ length: MAX_TICKS }, () => h('span', { className: 'ts-tick' }));
  const element = h('div', { className: 'ts-axis', 'aria-hidden': 'true' }, ticks);
  return {
    element,
    update(max, narrow) {
      const values = tickValues(max, narrow ? 3 : 5);
      ticks.forEach((tick, index) => {
        const value = values[index];
        setHidden(tick, value === undefined);
        if (value === undefined) return;
        setClass(tick, 'ts-tick-end', value / max > 0.92);
        setStyle(tick, 'left', percent(value, max));
        setText(tick, value === 0 ? '0' : format(value));
      });
    },
  };
}
