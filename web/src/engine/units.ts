// The one place the page reaches for reading, formatting and bounding quantities, and every one
// of them is the engine's (src/engine/quantity_*.cpp, field_limits.cpp; docs/numbers.md): the
// page keeps no unit table, formatter or limit of its own, so a figure, a quiz answer and the
// CLI table can never disagree. Each widget makes its own writers from its engine view
// (unitsFor), so two widgets in two languages each write in their own.

import type { Engine } from './engine';
import type { FieldLimit, FigureName } from './types';

export type ParseResult = { ok: true; value: number } | { ok: false; message: string };

/** One widget's writers and readers: every one asks that widget's engine view, in its language. */
export interface Units {
  formatNumber(value: number, significantFigures?: number): string;
  formatInteger(value: number): string;
  formatScientific(value: number, significantFigures?: number): string;
  formatCount(value: number, options?: { short?: boolean; significant?: number }): string;
  /** A number of GPUs with its noun in the engine's singular or plural: "1 GPU", "2,048 GPUs". */
  formatGpus(count: number): string;
  /** Counts with their noun in the engine's singular or plural: "1 sequence", "8,192 tokens", "70 billion parameters". */
  formatSequences(count: number): string;
  formatTokens(count: number): string;
  formatParameters(count: number): string;
  formatBytes(bytes: number, significantFigures?: number): string;
  formatDuration(seconds: number): string;
  formatPercent(fraction: number, significantFigures?: number): string;
  formatRatio(ratio: number): string;
  formatFlopsRate(flopsPerSecond: number): string;
  formatEnergy(joules: number): string;
  formatMoney(dollars: number): string;
  /** The named marks of a log time axis ("1 day", "1 year", …), as the engine writes them. */
  timeAxisMarks(): ReadonlyArray<{ seconds: number; label: string }>;
  /** Round ticks of a linear time axis (a clock's steps: 15 min, 1 h), as the engine picks them. */
  durationTicks(maxSeconds: number, count: number): number[];
  /** "BF16": a number format's name. */
  numberFormatName(id: string): string;
  /** "BF16 (2 bytes)": a number format with the bytes the engine counts for it. */
  numberFormatLabel(id: string): string;
  /**
   * What a learner typed into a scenario field, read in that field's kind ("70B" parameters is 70
   * billion; "80 GB" of memory is bytes) and checked against the field's limits, all by the engine.
   */
  readField(path: string, text: string): ParseResult;
  /** A scenario field's range, kind and slider as the engine gives them (field_limits.cpp); undefined for an unknown field. */
  fieldLimit(path: string): FieldLimit | undefined;
}

/** The engine members the writers use (engine.ts's Engine has them all). */
type UnitsEngine = Pick<Engine, 'format' | 'readField' | 'timeAxisMarks' | 'durationTicks' | 'numberFormats' | 'fieldLimits'>;

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
  return {
    formatNumber: (value, significantFigures = 3) => write(value, 'plain', significantFigures),
    formatInteger: (value) => write(value, 'integer'),
    formatScientific: (value, significantFigures = 2) => write(value, 'scientific', significantFigures),
    formatCount: (value, options = {}) => write(value, options.short ? 'count_short' : 'count', options.significant ?? 0),
    formatGpus: (count) => write(count, 'gpus'),
    formatSequences: (count) => write(count, 'sequences'),
    formatTokens: (count) => write(count, 'tokens'),
    formatParameters: (count) => write(count, 'parameters'),
    formatBytes: (bytes, significantFigures = 0) => write(bytes, 'bytes', significantFigures),
    formatDuration: (seconds) => write(seconds, 'duration'),
    formatPercent: (fraction, significantFigures = 2) => write(fraction, 'percent', significantFigures),
    formatRatio: (ratio) => write(ratio, 'ratio'),
    formatFlopsRate: (flopsPerSecond) => write(flopsPerSecond, 'flop_rate'),
    formatEnergy: (joules) => write(joules, 'energy'),
    formatMoney: (dollars) => write(dollars, 'money'),
    timeAxisMarks: () => engine.timeAxisMarks,
    durationTicks: (maxSeconds, count) => engine.durationTicks(maxSeconds, count),
    numberFormatName: (id) => engine.numberFormats.find((format) => format.id === id)?.name ?? id,
    numberFormatLabel: (id) => engine.numberFormats.find((format) => format.id === id)?.label ?? id,
    readField: (path, text) => {
      const reading = engine.readField(path, text);
      return reading.ok ? { ok: true, value: reading.value } : { ok: false, message: reading.error };
    },
    fieldLimit: (path) => engine.fieldLimits[path],
  };
}

const WRITINGS_KEPT = 4096;
