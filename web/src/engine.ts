// A thin typed wrapper over the wasm module: JSON text in and out becomes typed objects.
// The .wasm bytes travel inside the bundle (base64 of gzip, wasm-bytes.ts), so loading needs no
// fetch: it works over http, from file:// and under a CSP that forbids connect-src.

import loadEngineSource from 'trainscope:engine-source';
import type { QuantityReading, TrainscopeEngineModule } from './engine-module';
import { wasmBytesFromGzipBase64 } from './wasm-bytes';
import type { Estimate, FieldLimits, FigureName, Gpu, NumberFormatInfo, PartialScenario, Preset, QuantityKind, Scenario } from './types';

export type { QuantityReading } from './engine-module';

export interface Engine {
  /** The engine's estimate for a (partial) scenario; errors come back in `errors`. */
  estimate(scenario: Scenario | PartialScenario): Estimate;
  readonly presets: readonly Preset[];
  readonly gpus: readonly Gpu[];
  readonly defaultScenario: Scenario;
  /** A log time axis's marks, shortest first: {seconds: 1, label: '1 second'} … '100 million years'. */
  readonly timeAxisMarks: ReadonlyArray<{ seconds: number; label: string }>;
  /** Every number format with its bytes per value and a label ("BF16 (2 bytes)"). */
  readonly numberFormats: readonly NumberFormatInfo[];
  /** Every numeric scenario field's range, kind and integrality: the page's only limits. */
  readonly fieldLimits: FieldLimits;
  /** Typed text read as a quantity of `kind` ("70B" as a count: 7e10; as memory: 70 bytes). */
  readQuantity(text: string, kind: QuantityKind): QuantityReading;
  /** Typed text for a scenario field, read in its kind and checked against its limits. */
  readField(field: string, text: string): QuantityReading;
  /** The engine's writing of a figure: format(1.1288e12, 'bytes') → "1.13 TB". */
  format(value: number, figure: FigureName, significantFigures?: number): string;
  /** An axis tick, exact to six figures: "200 GB", "10²⁴ FLOPs", "1 week". */
  formatTick(value: number, figure: FigureName): string;
  /** 13e9 → "13 billion", 16384 → "16,384". */
  formatCount(value: number): string;
  /** Why `value` cannot go in `field`, or "" when it can. */
  fieldError(field: string, value: number): string;
  /** The raw module, for tests that check the page against the engine directly. */
  readonly module: TrainscopeEngineModule;
}

let loading: Promise<Engine> | null = null;

/** Loads the engine once per page; later calls share the same instance. A failed load may be retried. */
export function loadEngine(): Promise<Engine> {
  loading ??= instantiate().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

async function instantiate(): Promise<Engine> {
  const { createTrainscopeEngine, wasmGzipBase64 } = await loadEngineSource();
  const engineModule = await createTrainscopeEngine({
    wasmBinary: await wasmBytesFromGzipBase64(wasmGzipBase64),
    // The engine prints nothing in normal use; anything it does print is a bug worth seeing.
    print: (text) => console.info(`[trainscope engine] ${text}`),
    printErr: (text) => console.warn(`[trainscope engine] ${text}`),
  });
  return wrap(engineModule);
}

export function wrap(engineModule: TrainscopeEngineModule): Engine {
  const presets = JSON.parse(engineModule.presets()) as Preset[];
  const gpus = JSON.parse(engineModule.gpus()) as Gpu[];
  const defaultScenario = JSON.parse(engineModule.defaultScenario()) as Scenario;
  const fieldLimits = JSON.parse(engineModule.fieldLimits()) as FieldLimits;
  const numberFormats = JSON.parse(engineModule.numberFormats()) as NumberFormatInfo[];
  const timeAxisMarks = JSON.parse(engineModule.timeAxisMarks()) as Array<{ seconds: number; label: string }>;
  return {
    estimate: (scenario) => JSON.parse(engineModule.estimate(JSON.stringify(scenario))) as Estimate,
    presets,
    gpus,
    defaultScenario,
    fieldLimits,
    numberFormats,
    timeAxisMarks,
    readQuantity: (text, kind) => engineModule.readQuantity(text, kind),
    readField: (field, text) => engineModule.readField(field, text),
    format: (value, figure, significantFigures = 0) => engineModule.formatQuantity(value, figure, significantFigures),
    formatTick: (value, figure) => engineModule.formatTick(value, figure),
    formatCount: (value) => engineModule.formatCount(value),
    fieldError: (field, value) => engineModule.fieldError(field, value),
    module: engineModule,
  };
}
