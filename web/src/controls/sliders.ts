// Slider scales. A range input moves through integer positions; these map positions to the
// scenario's input values (log scales for ranges spanning decades) and back. They choose
// inputs, never figures: the engine computes everything shown from the value chosen.

import type { FieldLimit, SliderRange } from '../engine/types';

export type { SliderRange } from '../engine/types';

export interface SliderScale {
  /** The largest position; positions run 0..steps. */
  steps: number;
  valueAt(position: number): number;
  /** The position nearest to `value` (clamped to the ends). */
  positionOf(value: number): number;
}

/** Rounds to two significant digits ("nice" slider stops: 1, 1.1, … 9.5, 10, 11…). */
export function niceRound(value: number, significant = 2): number {
  if (value === 0) return 0;
  return Number(value.toPrecision(significant));
}

/** A log scale from min to max with `perDecade` stops per factor of ten. */
export function logScale(min: number, max: number, perDecade = 20, options: { integer?: boolean; significant?: number } = {}): SliderScale {
  const low = Math.log10(min);
  const high = Math.log10(max);
  const steps = Math.round((high - low) * perDecade);
  const valueAt = (position: number) => {
    const clamped = Math.min(steps, Math.max(0, Math.round(position)));
    if (clamped === 0) return min;
    if (clamped === steps) return max;
    const raw = niceRound(10 ** (low + (clamped / steps) * (high - low)), options.significant ?? 2);
    return options.integer ? Math.max(1, Math.round(raw)) : raw;
  };
  const positionOf = (value: number) => {
    if (!(value > 0)) return 0;
    const position = Math.round(((Math.log10(value) - low) / (high - low)) * steps);
    return Math.min(steps, Math.max(0, position));
  };
  return { steps, valueAt, positionOf };
}

/** A scale through an explicit list of stops (e.g. powers of two for GPU counts). */
export function stopScale(stops: number[]): SliderScale {
  const sorted = [...stops].sort((a, b) => a - b);
  return {
    steps: sorted.length - 1,
    valueAt: (position) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(position)))],
    positionOf: (value) => {
      // The nearest stop on a log scale: 3 is nearer 4 than 2 only if it is past √8.
      let best = 0;
      let bestDistance = Infinity;
      sorted.forEach((stop, index) => {
        const distance = Math.abs(Math.log(Math.max(value, 1e-300)) - Math.log(stop));
        if (distance < bestDistance) {
          bestDistance = distance;
          best = index;
        }
      });
      return best;
    },
  };
}

/** Powers of two from `min` (one itself) up to `max`, and `max` itself when it is not one. */
export function powersOfTwo(min: number, max: number): number[] {
  const stops: number[] = [];
  for (let value = min; value < max; value *= 2) stops.push(value);
  stops.push(max);
  return stops;
}

/** Powers of two from 1 up to (and including) `max` if it is not one. */
export function powersOfTwoUpTo(max: number): number[] {
  return powersOfTwo(1, max);
}

/** A linear slider scale in steps of `step` (rounded so 0.1 + 0.2 shows as 0.3). */
export function linearScale(min: number, max: number, step: number): SliderScale {
  const steps = Math.round((max - min) / step);
  return {
    steps,
    valueAt: (position) => Number((min + Math.min(steps, Math.max(0, Math.round(position))) * step).toFixed(6)),
    positionOf: (value) => Math.min(steps, Math.max(0, Math.round((value - min) / step))),
  };
}

/** The slider scale for the engine's description of it: the page keeps no range of its own. */
export function scaleFromRange(range: SliderRange, options: { integer?: boolean } = {}): SliderScale {
  switch (range.scale) {
    case 'log':
      return logScale(range.min, range.max, range.stops, { integer: options.integer });
    case 'linear':
      return linearScale(range.min, range.max, range.stops);
    case 'powers_of_two':
      return stopScale(powersOfTwo(range.min, range.max));
  }
}

/** The slider for a scenario field, spanning what the engine says it spans (field_limits.cpp). */
export function fieldScale(units: { fieldLimit(path: string): FieldLimit | undefined }, path: string): SliderScale {
  const limit = units.fieldLimit(path);
  if (!limit?.slider) throw new Error(`trainscope: the engine gives no slider range for ${path}`);
  return scaleFromRange(limit.slider, { integer: limit.integer });
}

/** Every value of a field's slider, in order: the choices of a drop-down that stands in for one. */
export function fieldStops(units: { fieldLimit(path: string): FieldLimit | undefined }, path: string): number[] {
  const scale = fieldScale(units, path);
  return Array.from({ length: scale.steps + 1 }, (_, position) => scale.valueAt(position));
}
