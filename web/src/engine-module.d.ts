// Hand-written types for the Emscripten module built from src/bindings/engine_bindings.cpp
// (MODULARIZE, EXPORT_NAME=createTrainscopeEngine). Every function takes and returns JSON
// text, so the one scenario schema (docs/scenario.md) is the only interface.

/** What the factory accepts (the build allows exactly these: INCOMING_MODULE_JS_API). */
export interface TrainscopeModuleArguments {
  /** The .wasm bytes; given, the module fetches nothing. */
  wasmBinary?: Uint8Array | ArrayBuffer;
  locateFile?: (path: string, prefix: string) => string;
  print?: (text: string) => void;
  printErr?: (text: string) => void;
  onAbort?: (reason: unknown) => void;
}

export interface TrainscopeEngineModule {
  /** Scenario JSON → estimate JSON. Never throws: problems come back in "errors". */
  estimate(scenarioJson: string): string;
  /** JSON array of {id, name, params, active_params, source, architecture}. */
  presets(): string;
  /** JSON array of {id, name, memory_bytes, peak_flops, watts, source}. */
  gpus(): string;
  /** The scenario used for any field not given, fully spelled out. */
  defaultScenario(): string;

  // The quiz (src/engine/quiz.hpp, docs/quiz.md): item JSON and a seed in, JSON out; never throws.
  /** One question ready to ask: prompt filled, numbers drawn from the seed, expected answer. */
  quizInstance(itemJson: string, seed: number): string;
  /** Grades {"text": "..."} or {"choices": [...]} for the instance (item, seed) produces. */
  quizGrade(itemJson: string, seed: number, answerJson: string): string;
  /** Checks a whole bank against the schema: {ok, items, errors:[{item, field, message}]}. */
  quizValidateBank(bankJson: string): string;
  /** The bank check CI runs: every numeric item for seeds 1..seeds. */
  quizCheckBank(bankJson: string, seeds: number): string;
  /** Reads a typed quantity without grading: {ok, value, unit_kind, display, error}. */
  quizReadQuantity(text: string): string;
  /** A Hugging Face config.json → {architecture | null, name, errors:[{field, message}], notes}. */
  modelFromHfConfig(configJson: string): string;
}

export type TrainscopeEngineFactory = (moduleArguments?: TrainscopeModuleArguments) => Promise<TrainscopeEngineModule>;
