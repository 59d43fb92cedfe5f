// The one place the page reaches for reading, formatting and bounding quantities, and every one
// of them is the engine's (src/engine/quantity_*.cpp, field_limits.cpp; docs/numbers.md): the
// page keeps no unit table, formatter or limit of its own, so a figure, a quiz answer and the
// CLI table can never disagree. Each widget makes its own writers from its engine view
// (unitsFor), so two widgets in two languages each write in their own.

import type { Engine } from './engine';
import { scaleFromRange, type SliderScale } from '../controls/sliders';
import type { FigureName } from './types';

export type ParseResult = { ok: true; value: number } | { ok: false; message: string };

/** One widget's writers and readers: every one asks that widget's engine view, in its language. */
export interface Units {
  formatNumber(value: number, significantFigures?: number): string;
  formatInteger(value: number): string;
  formatScientific(value: number, significantFigures?: number): string;
  formatCount(value: number, options?: { short?: boolean; significant?: number }): string;
  formatBytes(bytes: number, significantFigures?: number): string;
  formatDuration(seconds: number): string;
  formatPercent(fraction: number, significantFigures?: number): string;
  formatRatio(ratio: number): string;
  formatFlopsRate(flopsPerSecond: number): string;
  formatEnergy(joules: number): string;
  formatMoney(dollars: number): string;
  /** The named marks of a log time axis ("1 day", "1 year", …), as the engine writes them. */
  timeAxisMarks(): ReadonlyArray<{ seconds: number; label: string }>;
  /** "BF16": a number format's name. */
  numberFormatName(id: string): string;
  /** "BF16 (2 bytes)": a number format with the bytes the engine counts for it. */
  numberFormatLabel(id: string): string;
  /**
   * What a learner typed into a scenario field, read in that field's kind ("70B" parameters is 70
   * billion; "80 GB" of memory is bytes) and checked against the field's limits, all by the engine.
   */
  readField(path: string, text: string): ParseResult;
  /** The slider for a scenario field, spanning what the engine says it spans (field_limits.cpp). */
  sliderScale(path: string): SliderScale;
  /** Every value of a field's slider, in order: the choices of a drop-down that stands in for one. */
  sliderStops(path: string): number[];
}

/** The engine members the writers use (engine.ts's Engine has them all). */
type UnitsEngine = Pick<Engine, 'format' | 'readField' | 'timeAxisMarks' | 'numberFormats' | 'fieldLimits'>;

/**
 * The writers for one engine view. Its writings are remembered: a slider step asks for a few
 * dozen figures, most of them the same as the step before (the GPU's memory, the axis ticks), and
 * each engine call crosses into wasm and back through a string. The engine's formatter is a pure
 * function of its arguments and its language (one per view), so a remembered writing is the
 * engine's writing. Bounded: cleared when it grows past a page's worth.
 */
export function unitsFor(engine: UnitsEngine): Units {
  const writings = new Map<string, string>();
  /** 0 asks the engine for its default number of significant figures. */
  const write = (value: number, figure: FigureName, significantFigures = 0): string => {
    const key = `${figure}|${significantFigures}|${value}`;
    let text = writings.get(key);
    if (text === undefined) {
      text = engine.format(value, figure, significantFigures);
      if (writings.size >= WRITINGS_KEPT) writings.clear();
      writings.set(key, text);
    }
    return text;
  };
  const sliderScale = (path: string): SliderScale => {
    const limit = engine.fieldLimits[path];
    if (!limit?.slider) throw new Error(`trainscope: the engine gives no slider range for ${path}`);
    return scaleFromRange(limit.slider, { integer: limit.integer });
  };
  return {
    formatNumber: (value, significantFigures = 3) => write(value, 'plain', significantFigures),
    formatInteger: (value) => write(value, 'integer'),
    formatScientific: (value, significantFigures = 2) => write(value, 'scientific', significantFigures),
    formatCount: (value, options = {}) => write(value, options.short ? 'count_short' : 'count', options.significant ?? 0),
    formatBytes: (bytes, significantFigures = 0) => write(bytes, 'bytes', significantFigures),
    formatDuration: (seconds) => write(seconds, 'duration'),
    formatPercent: (fraction, significantFigures = 2) => write(fraction, 'percent', significantFigures),
    formatRatio: (ratio) => write(ratio, 'ratio'),
    formatFlopsRate: (flopsPerSecond) => write(flopsPerSecond, 'flop_rate'),
    formatEnergy: (joules) => write(joules, 'energy'),
    formatMoney: (dollars) => write(dollars, 'money'),
    timeAxisMarks: () => engine.timeAxisMarks,
    numberFormatName: (id) => engine.numberFormats.find((format) => format.id === id)?.name ?? id,
    numberFormatLabel: (id) => engine.numberFormats.find((format) => format.id === id)?.label ?? id,
    readField: (path, text) => {
      const reading = engine.readField(path, text);
      return reading.ok ? { ok: true, value: reading.value } : { ok: false, message: reading.error };
    },
    sliderScale,
    sliderStops: (path) => {
      const scale = sliderScale(path);
      return Array.from({ length: scale.steps + 1 }, (_, position) => scale.valueAt(position));
    },
  };
}

const WRITINGS_KEPT = 4096;

// The writers of the engine bound last, for code and tests outside a widget (a widget passes its
// own Units to its sections: two widgets may speak two languages).
let bound: Units | null = null;
let boundEngine: UnitsEngine | null = null;

/** Binds the module-level writers below to an engine (tests; a widget uses unitsFor). */
export function bindUnitsEngine(engine: UnitsEngine): void {
  if (boundEngine === engine) return;
  boundEngine = engine;
  bound = unitsFor(engine);
}

function units(): Units {
  if (!bound) throw new Error('trainscope: a figure was written before the engine loaded');
  return bound;
}

export const formatNumber = (value: number, significantFigures = 3): string => units().formatNumber(value, significantFigures);
export const formatInteger = (value: number): string => units().formatInteger(value);
export const formatScientific = (value: number, significantFigures = 2): string => units().formatScientific(value, significantFigures);
export const formatCount = (value: number, options: { short?: boolean; significant?: number } = {}): string => units().formatCount(value, options);
export const formatBytes = (bytes: number, significantFigures = 0): string => units().formatBytes(bytes, significantFigures);
export const formatDuration = (seconds: number): string => units().formatDuration(seconds);
export const formatPercent = (fraction: number, significantFigures = 2): string => units().formatPercent(fraction, significantFigures);
export const formatRatio = (ratio: number): string => units().formatRatio(ratio);
export const formatFlopsRate = (flopsPerSecond: number): string => units().formatFlopsRate(flopsPerSecond);
export const formatEnergy = (joules: number): string => units().formatEnergy(joules);
export const formatMoney = (dollars: number): string => units().formatMoney(dollars);
export const timeAxisMarks = (): ReadonlyArray<{ seconds: number; label: string }> => units().timeAxisMarks();
export const numberFormatName = (id: string): string => units().numberFormatName(id);
export const numberFormatLabel = (id: string): string => units().numberFormatLabel(id);
export const readField = (path: string, text: string): ParseResult => units().readField(path, text);
export const sliderScale = (path: string): SliderScale => units().sliderScale(path);
export const sliderStops = (path: string): number[] => units().sliderStops(path);
