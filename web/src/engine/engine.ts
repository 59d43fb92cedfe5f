// The one door to the wasm module: JSON text in and out becomes typed objects, here and in the
// files beside this one (view.ts, quiz.ts, step-timeline.ts, hf-config.ts); nothing outside
// web/src/engine/ calls the module or reads its JSON (tests/web/import-direction.test.mjs).
// The .wasm bytes travel inside the bundle (base64 of gzip, wasm-bytes.ts), so loading needs no
// fetch: it works over http, from file:// and under a CSP that forbids connect-src.

import loadEngineSource from 'trainscope:engine-source';
import type { QuantityReading, TrainscopeEngineModule } from './engine-module';
import { translator, type Catalogue, type Language, type Translate, type WidgetLanguage } from '../i18n/i18n';
import { offerGlossary } from './glossary';
import { readFit, readMethods, type EngineAnswer, type FineTuningMethod, type FitAnswer } from './fit';
import { parseHfConfig, type ConfigResult } from './hf-config';
import type { QuizEngine } from './quiz';
import { readView, type EngineView, type ViewRequest } from './view';
import { instantiateFromGzipBase64 } from './wasm-bytes';
import type {
  Choices,
  Estimate,
  FieldError,
  FieldLimits,
  FigureName,
  Gpu,
  NumberFormatInfo,
  PartialScenario,
  Preset,
  QuantityKind,
  Scenario,
  Story,
  ValidationSummary,
} from './types';

export type { QuantityReading } from './engine-module';

export interface Engine {
  /** The engine's estimate for a (partial) scenario; errors come back in `errors`. */
  estimate(scenario: Scenario | PartialScenario): Estimate;
  /** Everything the page draws after an input, in one call (view.ts); `t` writes the rare problems reading it (the widget's words). */
  view(scenario: PartialScenario, request: ViewRequest, t?: Translate): EngineView;
  /** The engine's reading of scenario JSON text: its errors, none when it accepts it (a member given twice is one). */
  scenarioErrors(scenarioJson: string): FieldError[];
  /** What fits the scenario's GPUs (fit.ts): asked by the fit section only, when its scenario changed. */
  fit(scenario: Scenario): EngineAnswer<FitAnswer>;
  /** Full training, LoRA and QLoRA side by side for the scenario's model and GPUs (fit.ts). */
  fineTuningMethods(scenario: Scenario): EngineAnswer<FineTuningMethod[]>;
  /** A Hugging Face config.json read into the engine's architecture fields (hf-config.ts). */
  parseHfConfig(text: string): ConfigResult;
  /** The quiz's engine functions (docs/quiz.md), in this view's language. */
  readonly quiz: QuizEngine;
  readonly presets: readonly Preset[];
  readonly gpus: readonly Gpu[];
  readonly defaultScenario: Scenario;
  /** A log time axis's marks, shortest first: {seconds: 1, label: '1 second'} … '100 million years'. */
  readonly timeAxisMarks: ReadonlyArray<{ seconds: number; label: string }>;
  /** Every choice field's values with the engine's words for each, in this view's language. */
  readonly choices: Choices;
  /** The lesson's starting scenarios, their published figures from the engine's presets. */
  readonly stories: readonly Story[];
  /** Every number format with its bytes per value and a label ("BF16 (2 bytes)"). */
  readonly numberFormats: readonly NumberFormatInfo[];
  /** Every numeric scenario field's range, kind and integrality: the page's only limits. */
  readonly fieldLimits: FieldLimits;
  /** How close the engine is to measured runs: its validation table's summary (docs/validation.md). */
  readonly validationSummary: ValidationSummary;
  /** Typed text read as a quantity of `kind` ("70B" as a count: 7e10; as memory: 70 bytes). */
  readQuantity(text: string, kind: QuantityKind): QuantityReading;
  /** Typed text for a scenario field, read in its kind and checked against its limits. */
  readField(field: string, text: string): QuantityReading;
  /** The engine's writing of a figure: format(1.1288e12, 'bytes') → "1.13 TB". */
  format(value: number, figure: FigureName, significantFigures?: number): string;
  /** An axis tick, exact to six figures: "200 GB", "10²⁴ FLOPs", "1 week". */
  formatTick(value: number, figure: FigureName): string;
  /** About `count` round ticks of a linear time axis from 0 to `maxSeconds`: 15 minutes apart, not 1,000 seconds. */
  durationTicks(maxSeconds: number, count: number): number[];
  /** 13e9 → "13 billion", 16384 → "16,384". */
  formatCount(value: number): string;
  /** Why `value` cannot go in `field`, or "" when it can. */
  fieldError(field: string, value: number): string;
  /** The module itself, for tests and tools that check the page against an independent engine
   *  call; a widget's view sets its language before each call. The page's code uses the calls above. */
  readonly module: TrainscopeEngineModule;
  /** The language this view's calls are made in. */
  readonly language: Language;
}

let loading: Promise<Engine> | null = null;

/** For the door's own rare sentences (an unreadable answer): the widget's words are the page's. */
const english = translator(null);

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
  // The module would swallow a failed instantiation (it only logs it), so that failure rejects here.
  const engineModule = await new Promise<TrainscopeEngineModule>((resolve, reject) => {
    createTrainscopeEngine({
      instantiateWasm: (imports, receiveInstance) => {
        instantiateFromGzipBase64(wasmGzipBase64, imports).then(receiveInstance, reject);
        return {};
      },
      // The engine prints nothing in normal use; anything it does print is a bug worth seeing.
      print: (text) => console.info(`[trainscope engine] ${text}`),
      printErr: (text) => console.warn(`[trainscope engine] ${text}`),
    }).then(resolve, reject);
  });
  return wrap(engineModule);
}

/** The language each module was last set to: one module serves every widget of the page. */
const moduleLanguage = new WeakMap<TrainscopeEngineModule, string>();
/** The languages whose catalogues each module has been given. */
const moduleCatalogues = new WeakMap<TrainscopeEngineModule, Set<string>>();

/** Sets the module's language when it is not already `language` (a module starts in English). */
function speak(engineModule: TrainscopeEngineModule, language: Language): void {
  if ((moduleLanguage.get(engineModule) ?? 'en') === language) return;
  // Engines built before setLanguage write English; the page still works in its own language.
  if (typeof engineModule.setLanguage === 'function') engineModule.setLanguage(language);
  moduleLanguage.set(engineModule, language);
}

/**
 * Hands the engine a language's catalogue (the pack's "engine" part), once per module; a
 * catalogue the engine refuses leaves it writing English, and says why in the console.
 */
export function giveCatalogue(module: TrainscopeEngineModule, language: Language, catalogue: Catalogue): void {
  const engineModule = rawModules.get(module) ?? module;
  const given = moduleCatalogues.get(engineModule) ?? new Set<string>();
  moduleCatalogues.set(engineModule, given);
  if (given.has(language) || typeof engineModule.loadMessages !== 'function') return;
  given.add(language);
  const problem = engineModule.loadMessages(language, JSON.stringify(catalogue));
  if (problem) console.warn(`trainscope: the engine's ${language} catalogue was not installed: ${problem}`);
}

/** Each language view's raw module, so that a view of a view calls the module itself. */
const rawModules = new WeakMap<TrainscopeEngineModule, TrainscopeEngineModule>();

/** The module seen from one widget: every call is made in the widget's language. */
function moduleIn(engineModule: TrainscopeEngineModule, language: Language): TrainscopeEngineModule {
  if (language === 'en' && typeof engineModule.setLanguage !== 'function') return engineModule;
  // Keyed by the function, not its name: a function replaced on the module (a test's stand-in
  // for an engine answer) is called, not the one wrapped before it.
  const wrapped = new WeakMap<object, unknown>();
  const view = new Proxy(engineModule, {
    get(target, property) {
      const value = Reflect.get(target, property) as unknown;
      if (typeof value !== 'function' || property === 'setLanguage' || property === 'loadMessages') return value;
      let call = wrapped.get(value);
      if (!call) {
        call = (...args: unknown[]) => {
          speak(target, language);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
        wrapped.set(value, call);
      }
      return call;
    },
  });
  rawModules.set(view, engineModule);
  return view;
}

/** The engine as one widget sees it: its calls, and the lists with words in them, in `language`. */
export function engineIn(engine: Engine, language: Language): Engine {
  if (engine.language === language) return engine;
  return wrap(rawModules.get(engine.module) ?? engine.module, language, engine);
}

/** A widget's engine: its language's catalogue handed over (before any sentence is asked for), and every call in that language. */
export function engineFor(shared: Engine, words: WidgetLanguage): Engine {
  if (words.pack) giveCatalogue(shared.module, words.language, words.pack.engine);
  return engineIn(shared, words.language);
}

export function wrap(rawModule: TrainscopeEngineModule, language: Language = 'en', shared?: Engine): Engine {
  const engineModule = moduleIn(rawModule, language);
  offerGlossary(language, engineModule);
  const gpus = shared?.gpus ?? (JSON.parse(engineModule.gpus()) as Gpu[]);
  const defaultScenario = shared?.defaultScenario ?? (JSON.parse(engineModule.defaultScenario()) as Scenario);
  const fieldLimits = shared?.fieldLimits ?? (JSON.parse(engineModule.fieldLimits()) as FieldLimits);
  // Labels ("BF16 (2 bytes)", "1 week") are written in the language: asked again for each.
  let numberFormats: NumberFormatInfo[] | null = null;
  let timeAxisMarks: Array<{ seconds: number; label: string }> | null = null;
  let choices: Choices | null = null;
  let stories: Story[] | null = null;
  // The published runs' names and notes are written in the language: asked again for each.
  let presets: Preset[] | null = null;
  let validationSummary: ValidationSummary | null = null;
  return {
    estimate: (scenario) => JSON.parse(engineModule.estimate(JSON.stringify(scenario))) as Estimate,
    view: (scenario, request, t = english) => readView(engineModule, JSON.stringify(scenario), request, t),
    scenarioErrors: (scenarioJson) => (JSON.parse(engineModule.estimate(scenarioJson)) as { errors: FieldError[] }).errors,
    fit: (scenario) => readFit(engineModule, scenario),
    fineTuningMethods: (scenario) => readMethods(engineModule, scenario),
    parseHfConfig: (text) => parseHfConfig(text, engineModule),
    quiz: engineModule,
    get presets() {
      presets ??= JSON.parse(engineModule.presets()) as Preset[];
      return presets;
    },
    gpus,
    defaultScenario,
    fieldLimits,
    get numberFormats() {
      numberFormats ??= JSON.parse(engineModule.numberFormats()) as NumberFormatInfo[];
      return numberFormats;
    },
    get choices() {
      choices ??= JSON.parse(engineModule.choices()) as Choices;
      return choices;
    },
    get stories() {
      stories ??= JSON.parse(engineModule.stories()) as Story[];
      return stories;
    },
    get validationSummary() {
      validationSummary ??= JSON.parse(engineModule.validationSummary()) as ValidationSummary;
      return validationSummary;
    },
    get timeAxisMarks() {
      timeAxisMarks ??= JSON.parse(engineModule.timeAxisMarks()) as Array<{ seconds: number; label: string }>;
      return timeAxisMarks;
    },
    readQuantity: (text, kind) => engineModule.readQuantity(text, kind),
    readField: (field, text) => engineModule.readField(field, text),
    format: (value, figure, significantFigures = 0) => engineModule.formatQuantity(value, figure, significantFigures),
    formatTick: (value, figure) => engineModule.formatTick(value, figure),
    durationTicks: (maxSeconds, count) => JSON.parse(engineModule.durationTicks(maxSeconds, count)) as number[],
    formatCount: (value) => engineModule.formatCount(value),
    fieldError: (field, value) => engineModule.fieldError(field, value),
    module: engineModule,
    language,
  };
}
