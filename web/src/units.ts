// The one place the page reaches for reading, formatting and bounding quantities, and every one
// of them is the engine's (src/engine/quantity_*.cpp, field_limits.cpp; docs/numbers.md): the
// page keeps no unit table, formatter or limit of its own, so a figure, a quiz answer and the
// CLI table can never disagree. The engine is loaded once per page (engine.ts), so the widget
// binds it here once, before any section is built.

import type { Engine } from './engine';
import { scaleFromRange, type SliderScale } from './sliders';
import type { FigureName } from './types';

export type ParseResult = { ok: true; value: number } | { ok: false; message: string };

let bound: Engine | null = null;

/** Called by the widget once the engine has loaded; every function below then asks it. */
export function bindUnitsEngine(engine: Engine): void {
  if (bound !== engine) writings.clear();
  bound = engine;
}

function engine(): Engine {
  if (!bound) throw new Error('trainscope: a figure was written before the engine loaded');
  return bound;
}

/**
 * The engine's writings, remembered: a slider step asks for a few dozen figures, most of them the
 * same as the step before (the GPU's memory, the axis ticks), and each engine call crosses into
 * wasm and back through a string. The engine's formatter is a pure function of its arguments, so
 * a remembered writing is the engine's writing. Bounded: cleared when it grows past a page's worth.
 */
const writings = new Map<string, string>();
const WRITINGS_KEPT = 4096;

/** 0 asks the engine for its default number of significant figures. */
function write(value: number, figure: FigureName, significantFigures = 0): string {
  const key = `${figure}|${significantFigures}|${value}`;
  let text = writings.get(key);
  if (text === undefined) {
    text = engine().format(value, figure, significantFigures);
    if (writings.size >= WRITINGS_KEPT) writings.clear();
    writings.set(key, text);
  }
  return text;
}

export const formatNumber = (value: number, significantFigures = 3): string => write(value, 'plain', significantFigures);
export const formatInteger = (value: number): string => write(value, 'integer');
export const formatScientific = (value: number, significantFigures = 2): string => write(value, 'scientific', significantFigures);
export const formatCount = (value: number, options: { short?: boolean; significant?: number } = {}): string =>
  write(value, options.short ? 'count_short' : 'count', options.significant ?? 0);
export const formatBytes = (bytes: number, significantFigures = 0): string => write(bytes, 'bytes', significantFigures);
export const formatDuration = (seconds: number): string => write(seconds, 'duration');
export const formatPercent = (fraction: number, significantFigures = 2): string => write(fraction, 'percent', significantFigures);
export const formatRatio = (ratio: number): string => write(ratio, 'ratio');
export const formatFlopsRate = (flopsPerSecond: number): string => write(flopsPerSecond, 'flop_rate');
export const formatEnergy = (joules: number): string => write(joules, 'energy');
export const formatMoney = (dollars: number): string => write(dollars, 'money');

/** The named marks of a log time axis ("1 day", "1 year", …), as the engine writes them. */
export function timeAxisMarks(): ReadonlyArray<{ seconds: number; label: string }> {
  return engine().timeAxisMarks;
}

/** "BF16": a number format's name. */
export function numberFormatName(id: string): string {
  return engine().numberFormats.find((format) => format.id === id)?.name ?? id;
}

/** "BF16 (2 bytes)": a number format with the bytes the engine counts for it. */
export function numberFormatLabel(id: string): string {
  return engine().numberFormats.find((format) => format.id === id)?.label ?? id;
}

/**
 * What a learner typed into a scenario field, read in that field's kind ("70B" parameters is 70
 * billion; "80 GB" of memory is bytes) and checked against the field's limits, all by the engine.
 */
export function readField(path: string, text: string): ParseResult {
  const reading = engine().readField(path, text);
  return reading.ok ? { ok: true, value: reading.value } : { ok: false, message: reading.error };
}

/** The slider for a scenario field, spanning what the engine says it spans (field_limits.cpp). */
export function sliderScale(path: string): SliderScale {
  const limit = engine().fieldLimits[path];
  if (!limit?.slider) throw new Error(`trainscope: the engine gives no slider range for ${path}`);
  return scaleFromRange(limit.slider, { integer: limit.integer });
}

/** Every value of a field's slider, in order: the choices of a drop-down that stands in for one. */
export function sliderStops(path: string): number[] {
  const scale = sliderScale(path);
  return Array.from({ length: scale.steps + 1 }, (_, position) => scale.valueAt(position));
}
