// Hand-written types for the Emscripten module built from src/bindings/engine_bindings.cpp
// (MODULARIZE, EXPORT_NAME=createTrainscopeEngine). Scenario, estimate and quiz calls take and
// return JSON text, so the one scenario schema (docs/scenario.md) is the only interface; the
// quantity calls (docs/numbers.md), made on every keystroke and slider step, take and return
// plain numbers, strings and one small object.

/** What the factory accepts (the build allows exactly these: INCOMING_MODULE_JS_API). */
export interface TrainscopeModuleArguments {
  /** The .wasm bytes; given, the module fetches nothing. */
  wasmBinary?: Uint8Array | ArrayBuffer;
  /** Instantiates the module itself (here: compiling while the bytes are still inflated); returns {}
   *  and hands the instance to `receiveInstance` when it is ready. The module fetches nothing. */
  instantiateWasm?: (imports: WebAssembly.Imports, receiveInstance: (instance: WebAssembly.Instance) => void) => Record<string, never>;
  locateFile?: (path: string, prefix: string) => string;
  print?: (text: string) => void;
  printErr?: (text: string) => void;
  onAbort?: (reason: unknown) => void;
}

/** What a typed quantity was read as. When !ok, value is 0 and error says why. */
export interface QuantityReading {
  ok: boolean;
  /** In the kind's base unit: bytes, FLOPs, FLOP/s, seconds, GPUs, a fraction (40% → 0.4), a count. */
  value: number;
  /** The kind it was read as: "number" | "memory" | "compute" | "rate" | "time" | "gpus" | "percent". */
  kind: string;
  /** The value as the engine writes it: "70 billion", "1.1 TB". */
  display: string;
  /** A sentence to show next to the field; "" when ok. */
  error: string;
}

export interface TrainscopeEngineModule {
  /** Scenario JSON → estimate JSON. Never throws: problems come back in "errors". */
  estimate(scenarioJson: string): string;
  /** Scenario JSON → one training step on one GPU, event by event (StepTimeline JSON, docs/scenario.md). Never throws. */
  stepTimeline(scenarioJson: string): string;
  /** The same timeline in columns: stepTimeline's JSON without "events", plus how to read them (step-timeline.ts). Never throws. */
  stepTimelineColumns(scenarioJson: string): string;
  /** The events' numbers of the last stepTimelineColumns: a view of wasm memory, valid until the next engine call. */
  stepTimelineNumbers(): Float64Array;
  /**
   * The page's one call per input (docs/scenario.md, "The page's view"): {estimate, reference:
   * {key, estimate | unchanged | same}, step (when asked, in columns: its numbers through
   * stepTimelineNumbers)}, or {errors}. The estimate's communication curve and schedule come only
   * when asked. Never throws. `shownControls`: the fields the page shows controls for, separated by
   * spaces, or '*': the notes' advice names no other.
   */
  view(
    scenarioJson: string,
    request: {
      knownReference: string;
      step: boolean;
      communicationCurve: boolean;
      communicationSchedule: boolean;
      shownControls: string;
    },
  ): string;
  /** A scenario, or {scenario, max_layouts} → what fits (docs/scenario.md, "What fits"); never throws. */
  fit(inputJson: string): string;
  /** A scenario → full, LoRA and QLoRA side by side (docs/scenario.md, "Fine-tuning methods side by side"); never throws. */
  fineTuningMethods(scenarioJson: string): string;
  /** JSON object {field: [{value, label, hint?, short?}]}: every choice field's values and their words. */
  choices(): string;
  /** JSON array of {id, label, scenario, source}: the lesson's starting scenarios. */
  stories(): string;
  /**
   * {"terms": [{id, abbreviation, name, forms, definition, source}]}: the words the page explains
   * (engine/glossary.ts). Absent from engines built before it.
   */
  glossary?(): string;
  /** JSON array of {id, name, params, active_params, source, architecture}. */
  presets(): string;
  /** JSON array of {id, name, memory_bytes, peak_flops, watts, memory_bandwidth, source}. */
  gpus(): string;
  /** The scenario used for any field not given, fully spelled out. */
  defaultScenario(): string;
  /**
   * {runs_compared, runs_with_peak, projects, median_error, worst_error, verdicts_wrong}: how close
   * the engine is to measured runs (docs/validation.md), errors as fractions.
   */
  validationSummary(): string;
  /** JSON array of {id, name, bytes, label}: every number format, labelled with its bytes per value. */
  numberFormats(): string;

  // Quantities (src/engine/text/quantity.hpp, docs/numbers.md): the one reader, formatter and limits table.
  /** Reads typed text as a quantity of `kind` (a QuantityKind name): "70B" as a count is 7e10, as memory 70 bytes. */
  readQuantity(text: string, kind: string): QuantityReading;
  /** Reads typed text for a scenario field ("parallel.gpus") in the field's kind and checks its limits. */
  readField(field: string, text: string): QuantityReading;
  /** Writes a value as a figure (a FigureName); significantFigures 0 is the default (3). "–" when not finite, "?" for an unknown figure. */
  formatQuantity(value: number, figure: string, significantFigures: number): string;
  /** An axis tick, exact to six figures: "200 GB", "10²⁴ FLOPs", "1 week". */
  formatTick(value: number, figure: string): string;
  /** 13e9 → "13 billion", 16384 → "16,384". */
  formatCount(value: number): string;
  /** JSON object {field: {min, max, kind, integer}} for every numeric scenario field. */
  fieldLimits(): string;
  /** JSON array of {seconds, label}: a log time axis's marks, "1 second" … "100 million years". */
  timeAxisMarks(): string;
  /** JSON array of seconds: about `count` round ticks of a linear time axis from 0 to maxSeconds. */
  durationTicks(maxSeconds: number, count: number): string;
  /** Why `value` cannot go in `field` ("must be between 1 and 10 million GPUs"), or "" when it can. */
  fieldError(field: string, value: number): string;

  // The quiz (src/engine/quiz/quiz.hpp, docs/quiz.md): item JSON and a seed in, JSON out; never throws.
  /** One question ready to ask: prompt filled, numbers drawn from the seed, expected answer. */
  quizInstance(itemJson: string, seed: number): string;
  /** Grades {"text": "..."} or {"choices": [...]} for the instance (item, seed) produces. */
  quizGrade(itemJson: string, seed: number, answerJson: string): string;
  /** Checks a whole bank against the schema: {ok, items, errors:[{item, field, message}]}. */
  quizValidateBank(bankJson: string): string;
  /** The bank check CI runs: every numeric item for seeds 1..seeds. */
  quizCheckBank(bankJson: string, seeds: number): string;
  /** Reads a typed quantity without grading: {ok, value, unit_kind, display, error}. */
  /** `unit`: the question's unit spelling ("" for a plain number): read as the grader reads it. */
  quizReadQuantity(text: string, unit: string): string;
  /** A Hugging Face config.json → {architecture | null, name, errors:[{field, message}], notes}. */
  modelFromHfConfig(configJson: string): string;

  // Languages (docs/i18n.md): every later call writes its sentences and numbers in this language.
  // Optional while engines without them are still about (the page checks before calling).
  /** Sets the language of every later call ("de", "de-AT", "es"); false for one the engine does not know. */
  setLanguage?(tag: string): boolean;
  /** Installs a language's catalogue (a JSON object of "key": "text"); "" when installed, else why not. */
  loadMessages?(tag: string, catalogueJson: string): string;
}

export type TrainscopeEngineFactory = (moduleArguments?: TrainscopeModuleArguments) => Promise<TrainscopeEngineModule>;
