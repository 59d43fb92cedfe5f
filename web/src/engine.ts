// A thin typed wrapper over the wasm module: JSON text in and out becomes typed objects.
// The .wasm bytes travel inside the bundle (base64), so loading needs no fetch: it works over
// http, from file:// and under a CSP that forbids connect-src.

import loadEngineSource from 'trainscope:engine-source';
import type { TrainscopeEngineModule } from './engine-module';
import type { Estimate, Gpu, PartialScenario, Preset, Scenario } from './types';

export interface Engine {
  /** The engine's estimate for a (partial) scenario; errors come back in `errors`. */
  estimate(scenario: Scenario | PartialScenario): Estimate;
  readonly presets: readonly Preset[];
  readonly gpus: readonly Gpu[];
  readonly defaultScenario: Scenario;
  /** The raw module, for tests that check the page against the engine directly. */
  readonly module: TrainscopeEngineModule;
}

export function decodeBase64(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
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
  const { createTrainscopeEngine, wasmBase64 } = await loadEngineSource();
  const engineModule = await createTrainscopeEngine({
    wasmBinary: decodeBase64(wasmBase64),
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
  return {
    estimate: (scenario) => JSON.parse(engineModule.estimate(JSON.stringify(scenario))) as Estimate,
    presets,
    gpus,
    defaultScenario,
    module: engineModule,
  };
}
