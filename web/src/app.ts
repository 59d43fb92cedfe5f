// The widget: builds the page inside a given root, keeps one Scenario, asks the engine for an
// Estimate on every input, and redraws every figure from it. Nothing here computes a figure:
// numbers on screen are engine values, formatted (format.ts).
//
//   controls ──▶ Scenario ──▶ engine.estimate ──▶ Estimate ──▶ render
//      ▲             │ URL hash
//      └─────────────┘

import { checkboxControl, radioControl, rangeControl, selectControl, type Control } from './controls';
import { h, replace, uniqueId } from './dom';
import { loadEngine, type Engine } from './engine';
import { byteAxis, gpuIcons, legend, PART_LABELS, shardBar, stackedBar, timeAxis, why, type Part } from './figures';
import {
  formatBytes, formatCount, formatDuration, formatEnergy, formatFlopsRate, formatInteger, formatMoney,
  formatNumber, formatPercent, formatRatio, formatScientific,
} from './format';
import { decodeHash, encodeHash } from './hash';
import { parseHfConfig } from './hf-config';
import { checkRange, parseInteger, parseQuantity, type ParseResult } from './parse';
import { clone, deleteField, getField, mergeScenario, setField } from './scenario';
import { logScale, powersOfTwoUpTo, stopScale } from './sliders';
import { EXAMPLE_CONFIG, STORIES } from './stories';
import type { Estimate, FieldError, PartialScenario, Scenario } from './types';
import { mountQuiz, type QuizHandle, type QuizStorage } from './quiz/quiz';
import defaultBank from '../quiz/bank.json';

declare const TRAINSCOPE_CSS: string;

export type Section = 'memory' | 'time' | 'quiz';
export type Theme = 'light' | 'dark' | 'auto';
export const ALL_SECTIONS: readonly Section[] = ['memory', 'time', 'quiz'];

export interface MountOptions {
  /** A starting scenario (over the engine's defaults). The URL hash wins when syncHash is on. */
  scenario?: PartialScenario;
  /** Keep the scenario in location.hash (#s=…). Default: true. */
  syncHash?: boolean;
  /** Add the stylesheet to the root's document or shadow root. Default: true. */
  injectStyles?: boolean;
  /** Which parts to show: memory (run vs train, activations, sharding, your model), time, quiz. Default: all. */
  sections?: readonly Section[];
  /** Colour scheme: follow the system (auto, the default) or force light or dark. */
  theme?: Theme;
  /** The quiz's pass mark (0..1); without one the quiz is a plain self-check. */
  passMark?: number;
  /** Where the quiz keeps progress (default: localStorage, guarded). SCORM passes cmi.suspend_data. */
  quizStorage?: QuizStorage;
  /** Tells apart several widgets' quiz progress on one origin. */
  instanceKey?: string;
  /** Level of the widget's title (1–4; sections and the quiz sit one and two below). Default 1;
   *  embedded in a course page, 2, under the page's own h1. */
  headingLevel?: number;
  /** Problems the host found in its own settings (e.g. element attributes), shown as a notice. */
  problems?: readonly string[];
}

export interface TrainscopeHandle {
  readonly engine: Engine;
  readonly element: HTMLElement;
  /** The scenario on screen, every field resolved by the engine. */
  scenario(): Scenario;
  /** Only the fields the learner or the link set (what the URL hash holds). */
  overrides(): PartialScenario;
  /** The estimate on screen (the last valid one). */
  estimate(): Estimate;
  setScenario(scenario: PartialScenario): void;
  destroy(): void;
}

const MODEL_PARAMS = 'model.params';
const MODEL_PRESET = 'model.preset';
const ANY_SIZE = '__params';
const FROM_CONFIG = '__config';
const CUSTOM_GPU = 'custom';

/** True when the document already carries the widget's stylesheet (the page's <link>, or the single file's <style>). */
export function documentHasStyles(doc: Document = document): boolean {
  return doc.querySelector('link[rel="stylesheet"][href$="trainscope.css"], style[data-trainscope-styles]') !== null;
}

function adoptStyles(root: HTMLElement | ShadowRoot): void {
  const host = root instanceof ShadowRoot ? root : (root.getRootNode() as Document | ShadowRoot);
  const css = typeof TRAINSCOPE_CSS === 'string' ? TRAINSCOPE_CSS : '';
  if (!css) return;
  const marker = 'trainscopeStyles';
  if ('adoptedStyleSheets' in host && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    // Constructed stylesheets are not subject to CSP's style-src and work in shadow roots.
    const existing = host.adoptedStyleSheets.find((sheet) => (sheet as CSSStyleSheet & { [marker]?: boolean })[marker]);
    if (existing) return;
    const sheet = new CSSStyleSheet() as CSSStyleSheet & { [marker]?: boolean };
    sheet.replaceSync(css);
    sheet[marker] = true;
    host.adoptedStyleSheets = [...host.adoptedStyleSheets, sheet];
    return;
  }
  const parent = host instanceof ShadowRoot ? host : document.head;
  if (!parent.querySelector('style[data-trainscope]')) parent.appendChild(h('style', { 'data-trainscope': 'true' }, css));
}

export async function mountTrainscope(root: HTMLElement | ShadowRoot, options: MountOptions = {}): Promise<TrainscopeHandle> {
  if (options.injectStyles !== false) adoptStyles(root);
  const container = h('div', { className: 'ts-root', 'aria-busy': 'true', 'data-theme': options.theme ?? 'auto' },
    h('p', { className: 'ts-loading' }, 'Loading the trainscope engine…'));
  root.appendChild(container);
  let engine: Engine;
  try {
    engine = await loadEngine();
  } catch (error) {
    replace(container, h('p', { className: 'ts-notice ts-notice-error', role: 'alert' },
      `The simulation engine could not start (${error instanceof Error ? error.message : String(error)}). The page needs WebAssembly.`));
    throw error;
  }
  const widget = new Widget(engine, container, options);
  container.removeAttribute('aria-busy');
  container.setAttribute('data-ts-ready', 'true');
  // The first computed figure is on screen: a mark for benchmarks (bench/page_bench.mjs) and tools.
  performance.mark?.('trainscope-first-figure');
  return widget.handle();
}

class Widget {
  private readonly engine: Engine;
  private readonly root: HTMLElement;
  private readonly syncHash: boolean;
  private readonly options: MountOptions;
  private readonly sections: ReadonlySet<Section>;
  private quiz: QuizHandle | null = null;
  private readonly defaults: Scenario;
  /** What the learner (or the link) set: the engine fills in everything else. This is the state. */
  private overrides: PartialScenario;
  /** The whole scenario as the engine resolved it for the figures on screen. */
  private resolved: Scenario;
  private good!: { estimate: Estimate; single: Estimate };
  private readonly controls: Control[] = [];
  private readonly renderers: Array<(estimate: Estimate, single: Estimate) => void> = [];
  /** Renderers that read only the one-GPU, unsharded estimate: parallel settings never change them. */
  private readonly singleRenderers = new Set<(estimate: Estimate, single: Estimate) => void>();
  /** The scenario behind `good.single`, so an input that changes only parallel settings reuses it. */
  private singleKey = '';
  private readonly generalErrors: HTMLElement;
  private readonly notice: HTMLElement;
  private readonly status: HTMLElement;
  private readonly notes: HTMLElement;
  private announceTimer: ReturnType<typeof setTimeout> | undefined;
  private lastAnnouncement = '';
  private configName = 'your model';
  private readonly onHashChange = () => this.loadFromHash();
  private readonly resizeObserver: ResizeObserver | null;
  private narrow = false;

  constructor(engine: Engine, root: HTMLElement, options: MountOptions) {
    this.engine = engine;
    this.root = root;
    this.syncHash = options.syncHash !== false;
    this.options = options;
    this.sections = new Set(options.sections && options.sections.length > 0 ? options.sections : ALL_SECTIONS);
    this.defaults = clone(engine.defaultScenario);
    this.overrides = clone(options.scenario ?? {});
    this.resolved = clone(this.defaults);
    this.notice = h('div', { className: 'ts-notice', role: 'alert' });
    this.notice.hidden = true;
    this.generalErrors = h('ul', { className: 'ts-errors', 'aria-label': 'Problems with the scenario' });
    this.generalErrors.hidden = true;
    this.notes = h('ul', { className: 'ts-notes', 'aria-label': 'Notes from the engine' });
    this.status = h('p', { className: 'ts-visually-hidden', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
    this.build();
    this.resizeObserver = typeof ResizeObserver === 'function' ? new ResizeObserver(() => this.onResize()) : null;
    this.resizeObserver?.observe(this.root);
    this.narrow = this.root.clientWidth > 0 && this.root.clientWidth < 560;

    let start = this.overrides;
    if (this.syncHash) {
      window.addEventListener('hashchange', this.onHashChange);
      const fromHash = this.scenarioFromHash();
      if (fromHash) start = fromHash;
    }
    const first = this.engine.estimate(start);
    if (first.errors.length > 0 && start !== this.overrides) {
      this.showNotice(`This link’s scenario has problems (${describeErrors(first.errors)}), so the page shows the default scenario instead.`);
      start = this.overrides;
    }
    this.overrides = start;
    this.commit({ announce: false, writeHash: false });
    if (!this.good) {
      // Even the starting scenario was refused (e.g. embed options with a typo): use the engine's defaults.
      this.showNotice(`The starting scenario has problems (${describeErrors(this.engine.estimate(this.overrides).errors)}); showing the default scenario instead.`);
      this.overrides = {};
      this.commit({ announce: false, writeHash: false });
    }
    if (options.problems && options.problems.length > 0 && this.notice.hidden) {
      this.showNotice(`${options.problems.join(' ')} The widget uses its defaults for those settings.`);
    }
  }

  handle(): TrainscopeHandle {
    return {
      engine: this.engine,
      element: this.root,
      scenario: () => clone(this.resolved),
      overrides: () => clone(this.overrides),
      estimate: () => clone(this.good.estimate),
      setScenario: (partial) => {
        this.overrides = clone(partial);
        this.commit({ announce: true, writeHash: true });
      },
      destroy: () => {
        this.quiz?.destroy();
        window.removeEventListener('hashchange', this.onHashChange);
        this.resizeObserver?.disconnect();
        clearTimeout(this.announceTimer);
        this.root.remove();
      },
    };
  }

  // ── State ────────────────────────────────────────────────────────────────────────────────

  private scenarioFromHash(): PartialScenario | null {
    const decoded = decodeHash(window.location.hash, this.engine.module);
    if (decoded.kind === 'empty') return null;
    if (decoded.kind === 'invalid') {
      this.showNotice(`${capitalise(decoded.message)}, so the page shows the default scenario instead.`);
      return null;
    }
    this.hideNotice();
    return decoded.scenario;
  }

  private loadFromHash(): void {
    if (window.location.hash === encodeHash(this.overrides)) return;
    const fromHash = this.scenarioFromHash() ?? {};
    const check = this.engine.estimate(fromHash);
    if (check.errors.length > 0) {
      this.showNotice(`This link’s scenario has problems (${describeErrors(check.errors)}), so the page shows the default scenario instead.`);
      this.overrides = {};
    } else this.overrides = fromHash;
    this.commit({ announce: true, writeHash: false });
  }

  /** The learner picked another model: a new preset brings its own facts (tokens, GPUs). */
  private setModel(model: PartialScenario['model'], fromPreset: boolean): void {
    let next: PartialScenario = { ...clone(this.overrides), model };
    const modelDependent = ['training.tokens', 'parallel.gpus', 'hardware.gpu'];
    for (const path of modelDependent) {
      // A preset's own training facts replace the previous model's; a bare count or a config
      // keeps what is on screen, so that only one thing changes at a time.
      next = fromPreset ? deleteField(next, path) : setField(next, path, getField(next, path) ?? getField(this.resolved, path));
    }
    if (fromPreset) for (const field of ['memory_bytes', 'peak_flops', 'watts']) next = deleteField(next, `hardware.${field}`);
    this.overrides = next;
  }

  /** A catalogue GPU brings its datasheet figures; "custom" starts from the GPU on screen. */
  private setGpu(id: string): void {
    let next = setField(this.overrides, 'hardware.gpu', id);
    for (const field of ['memory_bytes', 'peak_flops', 'watts']) next = deleteField(next, `hardware.${field}`);
    if (id === CUSTOM_GPU) {
      const gpu = this.good.estimate.gpu;
      next = setField(next, 'hardware.memory_bytes', gpu.memory_bytes);
      next = setField(next, 'hardware.peak_flops', gpu.peak_flops);
      next = setField(next, 'hardware.watts', gpu.watts);
    }
    this.overrides = next;
  }

  /** A learner changed one field. */
  private readonly onValue = (path: string, value: unknown): void => {
    if (path === MODEL_PRESET) {
      if (value === ANY_SIZE) this.setModel({ params: this.good.estimate.params }, false);
      else if (value === FROM_CONFIG) return;
      else this.setModel({ preset: String(value) }, true);
    } else if (path === MODEL_PARAMS) {
      this.setModel({ params: Number(value) }, false);
    } else if (path === 'hardware.gpu') {
      this.setGpu(String(value));
    } else if (path === 'hardware.memory_bytes' || path === 'hardware.peak_flops') {
      // Editing a GPU's memory or peak makes it the learner's own GPU, starting from the one on screen.
      if (getField(this.overrides, 'hardware.gpu') !== CUSTOM_GPU) this.setGpu(CUSTOM_GPU);
      this.overrides = setField(this.overrides, path, value);
    } else {
      this.overrides = setField(this.overrides, path, value);
    }
    this.commit({ announce: true, writeHash: true });
  };

  private commit(options: { announce: boolean; writeHash: boolean }): void {
    const estimate = this.engine.estimate(this.overrides);
    for (const control of this.controls) control.setError(null);
    if (estimate.errors.length > 0) {
      this.showFieldErrors(estimate.errors);
      this.root.classList.add('ts-stale');
    } else {
      this.clearGeneralErrors();
      this.root.classList.remove('ts-stale');
      if (estimate.scenario) this.resolved = estimate.scenario;
      // Section 1 compares one whole copy of the model: the same scenario on one GPU, unsharded.
      // Dragging a parallelism control leaves that copy as it was: reuse it and skip its figures.
      const singleScenario = { ...this.overrides, parallel: { gpus: 1, tensor: 1, pipeline: 1, zero_stage: 0 } };
      const singleKey = JSON.stringify(singleScenario);
      const singleUnchanged = this.good !== undefined && singleKey === this.singleKey;
      let single = singleUnchanged ? this.good.single : this.engine.estimate(singleScenario);
      if (single.errors.length > 0) single = estimate;
      this.singleKey = single === estimate ? '' : singleKey;
      this.good = { estimate, single };
      for (const render of this.renderers) {
        if (singleUnchanged && this.singleRenderers.has(render)) continue;
        render(this.good.estimate, this.good.single);
      }
      this.renderNotes(estimate.notes);
      if (options.writeHash) this.writeHash();
      if (options.announce) this.scheduleAnnouncement();
    }
    this.syncControls();
  }

  private syncControls(): void {
    // While the engine refuses the scenario, controls show what the learner set over the last good one.
    const shown = mergeScenario(this.resolved, this.overrides);
    for (const control of this.controls) {
      if (control.path === MODEL_PRESET) control.sync(this.modelChoice());
      else if (control.path === MODEL_PARAMS) control.sync(shown.model.params ?? this.good?.estimate.params);
      // A catalogue GPU's memory and peak are not scenario fields: show the datasheet values.
      else if (control.path === 'hardware.memory_bytes') control.sync(getField(shown, control.path) ?? this.good?.estimate.gpu.memory_bytes);
      else if (control.path === 'hardware.peak_flops') control.sync(getField(shown, control.path) ?? this.good?.estimate.gpu.peak_flops);
      else control.sync(getField(shown, control.path));
    }
  }

  private modelChoice(): string {
    const model = this.overrides.model ?? this.defaults.model;
    if (model.preset && !model.architecture) return model.preset;
    if (model.architecture && !model.preset) return FROM_CONFIG;
    if (model.params !== undefined) return ANY_SIZE;
    return model.preset ?? ANY_SIZE;
  }

  private writeHash(): void {
    if (!this.syncHash) return;
    const hash = encodeHash(this.overrides);
    if (hash === window.location.hash || (hash === '' && window.location.hash === '')) return;
    // replaceState: moving a slider should not fill the back button's history.
    const url = `${window.location.pathname}${window.location.search}${hash}`;
    try {
      history.replaceState(history.state, '', url || '#');
    } catch {
      // Some embedders (sandboxed iframes, file:// in some browsers) refuse; the page still works.
    }
  }

  private showFieldErrors(errors: FieldError[]): void {
    const unplaced: FieldError[] = [];
    for (const error of errors) {
      const control = this.controls.find((c) => c.path === error.field && c.path !== MODEL_PARAMS)
        ?? (error.field === MODEL_PARAMS || error.field === 'model' ? this.controls.find((c) => c.path === MODEL_PARAMS) : undefined);
      if (control) control.setError(`${error.message}. The figures still show the last valid scenario.`);
      else unplaced.push(error);
    }
    if (unplaced.length === 0) {
      this.clearGeneralErrors();
      return;
    }
    replace(this.generalErrors, unplaced.map((error) => h('li', null, h('code', null, error.field), ': ', error.message)));
    this.generalErrors.hidden = false;
  }

  private clearGeneralErrors(): void {
    this.generalErrors.hidden = true;
    this.generalErrors.replaceChildren();
  }

  private renderNotes(notes: string[]): void {
    replace(this.notes, notes.map((note) => h('li', null, note)));
    this.notes.hidden = notes.length === 0;
  }

  private showNotice(message: string): void {
    replace(this.notice, h('p', null, message),
      h('button', { type: 'button', className: 'ts-button ts-button-quiet', onclick: () => this.hideNotice() }, 'Dismiss'));
    this.notice.hidden = false;
  }

  private hideNotice(): void {
    this.notice.hidden = true;
  }

  /** Polite and debounced: one summary after the learner pauses, not one per slider step. */
  private scheduleAnnouncement(): void {
    clearTimeout(this.announceTimer);
    this.announceTimer = setTimeout(() => {
      const { estimate } = this.good;
      const training = estimate.training;
      const sentence = `${training.fits ? 'Training fits' : 'Training does not fit'}: ${formatBytes(training.per_gpu.total)} per GPU of ${formatBytes(estimate.gpu.memory_bytes)}. `
        + `Training time ${formatDuration(estimate.compute.seconds)} on ${formatInteger(this.resolved.parallel.gpus)} GPUs.`;
      if (sentence !== this.lastAnnouncement) {
        this.lastAnnouncement = sentence;
        this.status.textContent = sentence;
      }
    }, 900);
  }

  private onResize(): void {
    const narrow = this.root.clientWidth < 560;
    if (narrow !== this.narrow && this.good) {
      this.narrow = narrow;
      for (const render of this.renderers) render(this.good.estimate, this.good.single);
    }
  }

  private add<T extends Control>(control: T): T {
    this.controls.push(control);
    return control;
  }

  // ── Page ─────────────────────────────────────────────────────────────────────────────────

  private build(): void {
    replace(this.root,
      h('header', { className: 'ts-header' },
        h('p', { className: 'ts-kicker' }, 'Interactive · trainscope'),
        h(this.headingTag(0), { className: 'ts-title' }, 'Why training needs far more hardware than running a model'),
        h('p', { className: 'ts-lede' },
          'A model that answers questions fits on a GPU or two; training the same model took thousands. ',
          'Move the real inputs below and watch where the memory and the time go. Every figure is computed by the trainscope engine, running in this page as WebAssembly.'),
        h('p', { className: 'ts-units' }, 'Units: memory in decimal gigabytes and terabytes (1 GB = 10⁹ bytes, 1 TB = 10¹² bytes); compute in FLOPs (floating-point operations).')),
      this.notice,
      this.modelSection(),
      this.sections.has('memory') ? [this.memorySection(), this.activationSection(), this.shardingSection()] : null,
      this.sections.has('time') ? this.timeSection() : null,
      this.sections.has('memory') ? this.configSection() : null,
      this.sections.has('quiz') ? this.quizSection() : null,
      h('footer', { className: 'ts-footer' },
        h('p', null, 'Estimates, not measurements: real runs add communication buffers, fragmentation and framework overheads. Activation figures are illustrative. ',
          this.syncHash ? 'The scenario is in this page’s address, so a link shares exactly what you see.' : '')),
      this.status);
  }

  /** h1…h6 for a heading `depth` levels below the widget's title. */
  private headingTag(depth: number): 'h1' | 'h2' | 'h3' | 'h4' | 'h5' | 'h6' {
    const top = Math.min(4, Math.max(1, Math.round(this.options.headingLevel ?? 1)));
    return `h${Math.min(6, top + depth)}` as 'h1';
  }

  /** "Check your understanding": graded by the engine; "show me" loads an item's scenario above. */
  private quizSection(): HTMLElement {
    // A plain box: the quiz brings its own labelled region.
    const section = h('div', { className: 'ts-section ts-quiz', 'data-ts-section': 'quiz' });
    this.quiz = mountQuiz(section, {
      engine: this.engine.module,
      bank: defaultBank,
      // "Show me in the simulation" only where a simulation is shown.
      onShowInSimulation: this.sections.has('memory') || this.sections.has('time')
        ? (scenario) => this.showInSimulation(scenario as PartialScenario)
        : undefined,
      storage: this.options.quizStorage,
      passMark: this.options.passMark,
      instanceKey: this.options.instanceKey,
      headingLevel: Number(this.headingTag(1).slice(1)),
    });
    return section;
  }

  private showInSimulation(scenario: PartialScenario): void {
    this.overrides = clone(scenario);
    this.commit({ announce: true, writeHash: true });
    const target = this.root.querySelector<HTMLElement>('.ts-model');
    if (!target) return;
    const reduceMotion = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
    target.scrollIntoView({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'start' });
    // Move focus with the view so keyboard and screen-reader users land where the change is.
    target.setAttribute('tabindex', '-1');
    target.focus({ preventScroll: true });
  }

  private modelSection(): HTMLElement {
    const presetChoices = [
      ...this.engine.presets.map((preset) => ({ value: preset.id, label: `${preset.name} (${formatCount(preset.params, { short: true })} parameters)` })),
      { value: ANY_SIZE, label: 'Any size: choose the parameter count' },
      { value: FROM_CONFIG, label: 'Your config.json (see “Your own model”)' },
    ];
    const presetControl = this.add(selectControl(MODEL_PRESET, 'Model', presetChoices, this.onValue));
    const configOption = [...presetControl.select.options].find((option) => option.value === FROM_CONFIG);
    if (configOption) configOption.disabled = true;
    const paramsControl = this.add(rangeControl({
      path: MODEL_PARAMS,
      label: 'Parameters',
      hint: 'Moving this slider uses a typical Llama-like shape for the chosen size.',
      scale: logScale(1e8, 2e12, 20),
      parse: (text) => bounded(parseQuantity(text, 'count'), 1e6, 1e13, (n) => formatCount(n)),
      formatField: (value) => formatCount(value, { short: true, significant: 4 }),
      describe: (value) => `${formatCount(value)} parameters`,
      fieldLabel: 'Parameters, exact number (e.g. 70B or 7e9)',
    }, this.onValue));

    const stories = h('div', { className: 'ts-stories', role: 'group', 'aria-label': 'Start from the lesson' },
      h('span', { className: 'ts-stories-label' }, 'Start from the lesson:'),
      STORIES.map((story) => h('button', {
        type: 'button', className: 'ts-button', title: story.source, 'data-story': story.id,
        onclick: () => {
          this.overrides = clone(story.scenario);
          this.commit({ announce: true, writeHash: true });
        },
      }, story.label)));

    const summary = h('p', { className: 'ts-model-summary', 'aria-live': 'off' });
    this.renderers.push((estimate) => {
      const assumed = estimate.architecture?.assumed ? ' (shape assumed: Llama-like)' : '';
      const active = estimate.active_params !== estimate.params ? `, ${formatCount(estimate.active_params)} active per token` : '';
      const a = estimate.architecture;
      const shape = a ? `${formatInteger(a.layers)} layers, hidden size ${formatInteger(a.hidden)}, ${formatInteger(a.heads)} heads (${formatInteger(a.kv_heads)} key/value), vocabulary ${formatInteger(a.vocab)}${a.experts > 1 ? `, ${a.experts} experts (${a.experts_per_token} per token)` : ''}` : '';
      replace(summary, h('strong', { 'data-value': String(estimate.params), 'data-figure': 'params' }, `${formatCount(estimate.params)} parameters`), active, assumed, shape ? ` · ${shape}` : '');
    });

    return h('section', { className: 'ts-section ts-model', 'aria-label': 'Model' },
      stories,
      h('div', { className: 'ts-model-controls' }, presetControl.element, paramsControl.element),
      summary, this.notes, this.generalErrors);
  }

  private memorySection(): HTMLElement {
    const headingId = uniqueId('heading');
    const headline = h('div', { className: 'ts-headline' });
    const figure = h('div', { className: 'ts-figure-body' });
    const renderMemory = (_estimate: Estimate, single: Estimate) => {
      const inference = single.inference;
      const training = single.training;
      const gpu = single.gpu;
      const perParam = training.bytes_per_param;
      const runParts: Part[] = [
        { key: 'weights', label: PART_LABELS.weights, value: inference.weights, detail: `${formatNumber(inference.bytes_per_param)} bytes per parameter` },
        { key: 'kv_cache', label: PART_LABELS.kv_cache, value: inference.kv_cache, detail: `${formatInteger(this.resolved.inference.batch)} × ${formatInteger(this.resolved.inference.context)} tokens` },
      ];
      const trainParts: Part[] = [
        { key: 'weights', label: PART_LABELS.weights, value: training.per_gpu.weights, detail: `${formatNumber(perParam.weights)} B/param` },
        { key: 'gradients', label: PART_LABELS.gradients, value: training.per_gpu.gradients, detail: `${formatNumber(perParam.gradients)} B/param` },
        { key: 'master_weights', label: PART_LABELS.master_weights, value: training.per_gpu.master_weights, detail: `${formatNumber(perParam.master_weights)} B/param` },
        { key: 'optimizer_states', label: PART_LABELS.optimizer_states, value: training.per_gpu.optimizer_states, detail: `${formatNumber(perParam.optimizer_states)} B/param` },
        { key: 'activations', label: PART_LABELS.activations, value: training.per_gpu.activations, detail: `micro-batch ${formatInteger(this.resolved.training.micro_batch)} × ${formatInteger(this.resolved.training.sequence)} tokens` },
        { key: 'logits', label: PART_LABELS.logits, value: training.per_gpu.logits, detail: 'FP32, for the loss' },
      ];
      const max = Math.max(training.per_gpu.total, inference.total, gpu.memory_bytes);
      const markers = [{ value: gpu.memory_bytes, label: `one ${shortGpu(gpu.name)}: ${formatBytes(gpu.memory_bytes)}` }];
      // min_gpus is -1 when the activations alone overflow a GPU: then count what the model states need.
      const statesOnly = training.min_gpus <= 0 && (training.min_gpus_for_states ?? 0) > 0;
      const trainingMinimum = training.min_gpus > 0 ? training.min_gpus : training.min_gpus_for_states ?? -1;
      const trainingGpus = trainingMinimum > 0 ? `at least ${formatInteger(trainingMinimum)} GPUs` : 'more GPUs than any count can give';

      replace(headline,
        h('div', { className: 'ts-stat ts-stat-run' },
          h('p', { className: 'ts-stat-label' }, 'To run it'),
          h('p', { className: 'ts-stat-value', 'data-figure': 'inference-total', 'data-value': String(inference.total) }, formatBytes(inference.total)),
          h('p', { className: 'ts-stat-detail' }, h('span', { 'data-figure': 'inference-bytes-per-param' }, `${formatNumber(inference.bytes_per_param)} bytes`), ' per parameter'),
          h('p', { className: 'ts-stat-gpus' }, gpuIcons(inference.min_gpus, 40, `${formatInteger(inference.min_gpus)} GPUs`),
            h('span', { 'data-figure': 'inference-min-gpus', 'data-value': String(inference.min_gpus) }, `${formatInteger(inference.min_gpus)} × ${shortGpu(gpu.name)}`))),
        h('div', { className: 'ts-stat ts-stat-ratio' },
          h('p', { className: 'ts-stat-value', 'data-figure': 'ratio', 'data-value': String(single.ratio_training_to_inference) }, formatRatio(single.ratio_training_to_inference)),
          h('p', { className: 'ts-stat-detail' }, 'more bytes per parameter to train')),
        h('div', { className: 'ts-stat ts-stat-train' },
          h('p', { className: 'ts-stat-label' }, 'To train it'),
          h('p', { className: 'ts-stat-value', 'data-figure': 'training-total', 'data-value': String(training.per_gpu.total) }, formatBytes(training.per_gpu.total)),
          h('p', { className: 'ts-stat-detail' }, h('span', { 'data-figure': 'training-bytes-per-param' }, `${formatNumber(perParam.total)} bytes`), ' per parameter, plus activations'),
          h('p', { className: 'ts-stat-gpus' }, gpuIcons(Math.max(trainingMinimum, 0), 40, trainingGpus),
            h('span', { 'data-figure': 'training-min-gpus', 'data-value': String(trainingMinimum) }, trainingMinimum > 0 ? `≥ ${formatInteger(trainingMinimum)} × ${shortGpu(gpu.name)}` : 'does not fit'),
            trainingMinimum > 0 ? h('span', { className: 'ts-stat-aside' }, statesOnly ? ' fully sharded, for the model states alone' : ' fully sharded') : null)));

      replace(figure,
        h('div', { className: 'ts-bar-row' },
          h('p', { className: 'ts-bar-label' }, h('strong', null, 'Run'), ` ${formatBytes(inference.total)}`),
          stackedBar(runParts, max, { markers, label: `Running needs ${formatBytes(inference.total)}: weights ${formatBytes(inference.weights)}, KV cache ${formatBytes(inference.kv_cache)}.` })),
        h('div', { className: 'ts-bar-row' },
          h('p', { className: 'ts-bar-label' }, h('strong', null, 'Train'), ` ${formatBytes(training.per_gpu.total)}`),
          stackedBar(trainParts, max, { markers, markerLabels: false, label: `Training one copy needs ${formatBytes(training.per_gpu.total)}: ${trainParts.map((p) => `${p.label} ${formatBytes(p.value)}`).join(', ')}.` })),
        byteAxis(max, this.narrow),
        h('div', { className: 'ts-legends' },
          legend(runParts, { caption: 'Running: what is in memory' }),
          legend(trainParts, { caption: 'Training: what is in memory' })));
    };
    this.renderers.push(renderMemory);
    this.singleRenderers.add(renderMemory);

    const precisionChoices = ['bf16', 'fp16', 'fp32', 'fp8', 'int8', 'int4'].map((value) => ({ value, label: precisionLabel(value) }));
    const deeper = h('details', { className: 'ts-deeper' },
      h('summary', null, 'Go deeper: precision, optimizer, serving'),
      h('div', { className: 'ts-deeper-body ts-grid-controls' },
        this.add(selectControl('inference.precision', 'Weights when running', precisionChoices, this.onValue)).element,
        this.add(selectControl('inference.kv_precision', 'KV cache precision', precisionChoices.filter((c) => c.value !== 'int4'), this.onValue)).element,
        this.add(rangeControl({
          path: 'inference.batch', label: 'Sequences served at once', scale: stopScale(powersOfTwoUpTo(256)),
          parse: (text) => parseInteger(text, 1, 4096), formatField: formatInteger, describe: (v) => `${formatInteger(v)} sequences`,
        }, this.onValue)).element,
        this.add(rangeControl({
          path: 'inference.context', label: 'Context per sequence (tokens)', scale: stopScale(powersOf(128, 131072)),
          parse: (text) => parseInteger(text, 1, 1_048_576), formatField: formatInteger, describe: (v) => `${formatInteger(v)} tokens`,
        }, this.onValue)).element,
        this.add(selectControl('training.optimizer', 'Optimizer', [
          { value: 'adamw', label: 'AdamW (two states per weight)' }, { value: 'adam', label: 'Adam' },
          { value: 'sgd_momentum', label: 'SGD with momentum (one state)' }, { value: 'sgd', label: 'Plain SGD (no state)' },
          { value: 'adam_8bit', label: '8-bit Adam' }, { value: 'adafactor', label: 'Adafactor (factored)' },
        ], this.onValue)).element,
        this.add(selectControl('training.precision', 'Training precision', [
          { value: 'bf16', label: 'BF16 mixed precision (FP32 master copy)' }, { value: 'fp16', label: 'FP16 mixed precision (FP32 master copy)' },
          { value: 'fp32', label: 'FP32 throughout' },
        ], this.onValue)).element));

    return h('section', { className: 'ts-section', 'aria-labelledby': headingId },
      h(this.headingTag(1), { className: 'ts-section-title', id: headingId }, '1. Running vs training: what must sit in memory'),
      h('div', { className: 'ts-prose' },
        h('p', null, 'To run a model, a GPU holds its weights — 2 bytes for each parameter at 16-bit precision — and a key/value cache of the text it is reading. ',
          'To train it, every weight brings company: a gradient saying which way to nudge it, a full-precision master copy so that tiny nudges are not rounded away, and the optimizer’s two running averages. ',
          'That is 16 bytes per parameter, before any activations are stored.')),
      headline,
      h('figure', { className: 'ts-figure' }, figure,
        h('figcaption', null, 'One whole copy of the model, on one scale. The vertical line is one GPU’s memory; each bar shows how far past it the model reaches.')),
      why('Why 16 bytes instead of 2?', [
        'Mixed-precision training computes in 16-bit numbers but keeps an FP32 (4-byte) copy of each weight, because an update of one part in a million would vanish if added to a 16-bit weight. Adam keeps two more FP32 numbers per weight: a running average of the gradient (momentum) and of its square (to scale each step).',
        'Running the model needs none of this: only the weights, and the KV cache that stores the keys and values of the text so far.',
      ], 'training: 2 (weights) + 2 (gradients) + 4 (FP32 master) + 4 + 4 (Adam m, v) = 16 bytes per parameter; running: 2 bytes per parameter + KV cache 2 · layers · batch · context · kv_heads · head size · bytes',
      'Rajbhandari et al. 2019, “ZeRO”, §3.1; Micikevicius et al. 2018, “Mixed Precision Training”.'),
      deeper);
  }

  private activationSection(): HTMLElement {
    const headingId = uniqueId('heading');
    const figure = h('div', { className: 'ts-figure-body ts-two-up' });
    this.renderers.push((estimate) => {
      const training = estimate.training;
      const compute = estimate.compute;
      const memoryMax = Math.max(training.activations_without_recompute, training.per_gpu.activations);
      const computeMax = Math.max(compute.flops, compute.hardware_flops);
      replace(figure,
        h('div', { className: 'ts-card' },
          h(this.headingTag(2), { className: 'ts-subsection-title' }, 'Memory saved'),
          h('p', { className: 'ts-card-detail' }, 'Activations held by each GPU'),
          h('div', { className: 'ts-bar-row' },
            h('p', { className: 'ts-bar-label' }, 'Keep everything ', h('strong', { 'data-figure': 'activations-without-recompute', 'data-value': String(training.activations_without_recompute) }, formatBytes(training.activations_without_recompute))),
            stackedBar([{ key: 'activations', label: PART_LABELS.activations, value: training.activations_without_recompute }], memoryMax, { label: `Without recomputation: ${formatBytes(training.activations_without_recompute)}` })),
          h('div', { className: 'ts-bar-row' },
            h('p', { className: 'ts-bar-label' }, 'Your choice ', h('strong', { 'data-figure': 'activations', 'data-value': String(training.per_gpu.activations) }, formatBytes(training.per_gpu.activations))),
            stackedBar([{ key: 'activations', label: PART_LABELS.activations, value: training.per_gpu.activations }], memoryMax, { label: `With your settings: ${formatBytes(training.per_gpu.activations)}` })),
          training.activations_saved_by_recompute !== undefined
            ? h('p', { className: 'ts-big-number', 'data-figure': 'activations-saved', 'data-value': String(training.activations_saved_by_recompute) },
              formatBytes(training.activations_saved_by_recompute), h('span', null, ' saved on each GPU'))
            : null,
          h('p', { className: 'ts-card-detail' }, `${formatBytes(training.activations_per_layer)} per layer; logits add ${formatBytes(training.per_gpu.logits)}.`)),
        h('div', { className: 'ts-card' },
          h(this.headingTag(2), { className: 'ts-subsection-title' }, 'Compute paid'),
          h('p', { className: 'ts-card-detail' }, 'Arithmetic for the whole run'),
          h('div', { className: 'ts-bar-row' },
            h('p', { className: 'ts-bar-label' }, 'Model FLOPs ', h('strong', null, formatScientific(compute.flops))),
            stackedBar([{ key: 'weights', label: 'Model FLOPs', value: compute.flops }], computeMax, { label: `Model FLOPs ${formatScientific(compute.flops)}` })),
          h('div', { className: 'ts-bar-row' },
            h('p', { className: 'ts-bar-label' }, 'With recomputation ', h('strong', null, formatScientific(compute.hardware_flops))),
            stackedBar([{ key: 'activations', label: 'Hardware FLOPs', value: compute.hardware_flops }], computeMax, { label: `Hardware FLOPs ${formatScientific(compute.hardware_flops)}` })),
          h('p', { className: 'ts-big-number', 'data-figure': 'recompute-overhead', 'data-value': String(compute.recompute_overhead) },
            compute.recompute_overhead > 0 ? `+${formatPercent(compute.recompute_overhead)}` : '+0%', h('span', null, ' extra compute'))));
    });
    return h('section', { className: 'ts-section', 'aria-labelledby': headingId },
      h(this.headingTag(1), { className: 'ts-section-title', id: headingId }, '2. Activations: remember, or recompute'),
      h('div', { className: 'ts-prose' },
        h('p', null, 'The backward pass needs what every layer computed on the way forward. Keeping all of it costs memory that grows with the batch and, for attention, with the square of the sequence length. ',
          'Checkpointing keeps only a little and recomputes the rest when the backward pass asks for it: a lot of memory saved for some extra arithmetic.')),
      h('div', { className: 'ts-panel' },
        h('div', { className: 'ts-panel-controls' },
          this.add(rangeControl({
            path: 'training.micro_batch', label: 'Micro-batch (sequences per GPU per step)', scale: stopScale(powersOfTwoUpTo(256)),
            parse: (text) => parseInteger(text, 1, 4096), formatField: formatInteger, describe: (v) => `${formatInteger(v)} sequences`,
          }, this.onValue)).element,
          this.add(rangeControl({
            path: 'training.sequence', label: 'Sequence length (tokens)', scale: stopScale(powersOf(128, 131072)),
            parse: (text) => parseInteger(text, 1, 1_048_576), formatField: formatInteger, describe: (v) => `${formatInteger(v)} tokens`,
          }, this.onValue)).element,
          this.add(radioControl('training.recompute', 'Activation checkpointing', [
            { value: 'none', label: 'None', hint: 'keep everything' },
            { value: 'selective', label: 'Selective', hint: 'recompute attention' },
            { value: 'full', label: 'Full', hint: 'keep layer inputs only' },
          ], this.onValue)).element,
          this.add(checkboxControl('training.flash_attention', 'FlashAttention', this.onValue, 'never stores the attention score matrix')).element),
        h('figure', { className: 'ts-figure' }, figure,
          h('figcaption', null, 'Activation memory on each GPU, without and with your checkpointing choice, beside the arithmetic paid for it.'))),
      why('Why does recomputation save so much?', [
        'For each layer, the forward pass produces dozens of intermediate tensors the size of the input, plus attention scores that grow with the square of the sequence. Full checkpointing keeps only each layer’s input and runs the forward pass again during the backward pass: about one extra forward pass, a third more compute. Selective recomputation redoes only the attention core, which is cheap to recompute and expensive to store; FlashAttention never stores those scores in the first place.',
      ], 'per layer, 16-bit: s·b·h·(34 + 5·a·s/h) with nothing recomputed; 34·s·b·h with selective; 2·s·b·h with full (s sequence, b micro-batch, h hidden, a heads)',
      'Korthikanti et al. 2022, “Reducing Activation Recomputation in Large Transformer Models”, Table 2; Dao et al. 2022, “FlashAttention”.'));
  }

  private shardingSection(): HTMLElement {
    const headingId = uniqueId('heading');
    const status = h('div', { className: 'ts-fit' });
    const figure = h('div', { className: 'ts-figure-body' });
    this.renderers.push((estimate) => {
      const training = estimate.training;
      const perGpu = training.per_gpu;
      const states = training.model_states;
      const gpu = estimate.gpu;
      const gpus = this.resolved.parallel.gpus;
      const parts: Part[] = (['weights', 'gradients', 'master_weights', 'optimizer_states', 'activations', 'logits'] as const).map((key) => ({
        key, label: PART_LABELS[key], value: perGpu[key],
        detail: key === 'activations' || key === 'logits' ? 'its own micro-batch'
          : perGpu[key] < states[key] ? `a slice of ${formatBytes(states[key])}` : 'a full copy',
      }));
      const max = Math.max(perGpu.total, gpu.memory_bytes);
      const minimum = training.min_gpus;
      replace(status,
        h('p', { className: `ts-fit-badge ${training.fits ? 'ts-fits' : 'ts-no-fit'}`, 'data-figure': 'fits', 'data-value': String(training.fits) },
          h('span', { className: 'ts-fit-icon', 'aria-hidden': 'true' }, training.fits ? '✓' : '✗'),
          training.fits ? ' Fits' : ' Does not fit'),
        h('p', { className: 'ts-fit-text' },
          'Each GPU holds ', h('strong', { 'data-figure': 'per-gpu-total', 'data-value': String(perGpu.total) }, formatBytes(perGpu.total)),
          ` of its ${formatBytes(gpu.memory_bytes)}`,
          ` (${formatInteger(gpus)} ${plural(gpus, 'GPU')}, ${formatInteger(training.data_parallel)}-way data parallel).`),
        h('p', { className: 'ts-fit-text' },
          minimum > 0
            ? ['Fully sharded (ZeRO-3), training fits from ', h('strong', { 'data-figure': 'min-gpus', 'data-value': String(minimum) }, `${formatInteger(minimum)} GPUs`), '.',
              !training.fits && minimum <= 100000
                ? h('button', { type: 'button', className: 'ts-button', onclick: () => {
                  this.overrides = setField(setField(this.overrides, 'parallel.zero_stage', 3), 'parallel.gpus', minimum);
                  this.commit({ announce: true, writeHash: true });
                } }, `Try ZeRO-3 on ${formatInteger(minimum)} GPUs`) : null]
            : [h('span', { 'data-figure': 'min-gpus', 'data-value': String(minimum) }, 'Even fully sharded, the activations alone do not fit on one GPU: try checkpointing, a shorter sequence or tensor parallelism.'),
              this.resolved.training.recompute !== 'full'
                ? h('button', { type: 'button', className: 'ts-button', onclick: () => {
                  this.overrides = setField(this.overrides, 'training.recompute', 'full');
                  this.commit({ announce: true, writeHash: true });
                } }, 'Try full checkpointing') : null]));
      const chips: HTMLElement[] = [];
      const shown = Math.min(gpus, this.narrow ? 8 : 16);
      for (let index = 0; index < shown; index += 1) {
        chips.push(h('li', { className: `ts-chip ${training.fits ? '' : 'ts-chip-over'}` },
          h('span', { className: 'ts-chip-fill', style: { height: `${Math.min(100, (perGpu.total / gpu.memory_bytes) * 100).toFixed(2)}%` } }),
          h('span', { className: 'ts-chip-name' }, `GPU ${index + 1}`)));
      }
      const stateKeys = ['weights', 'gradients', 'master_weights', 'optimizer_states'] as const;
      const wholeMax = states.total;
      replace(figure,
        h('div', { className: 'ts-bar-row' },
          h('p', { className: 'ts-bar-label' }, h('strong', null, 'The whole model’s states'), ` ${formatBytes(states.total)}, and the slice GPU 1 keeps (outlined)`),
          shardBar(stateKeys.map((key) => ({ key, label: PART_LABELS[key], whole: states[key], mine: perGpu[key] })), wholeMax,
            `The model states total ${formatBytes(states.total)}. ${stateKeys.map((key) => perGpu[key] < states[key] ? `${PART_LABELS[key]}: each GPU keeps a slice, ${formatBytes(perGpu[key])} of ${formatBytes(states[key])}` : `${PART_LABELS[key]}: every GPU keeps all ${formatBytes(states[key])}`).join('; ')}.`)),
        h('div', { className: 'ts-bar-row' },
          h('p', { className: 'ts-bar-label' }, h('strong', null, 'One GPU'), ` ${formatBytes(perGpu.total)} of ${formatBytes(gpu.memory_bytes)}`),
          stackedBar(parts, max, {
            markers: [{ value: gpu.memory_bytes, label: `${shortGpu(gpu.name)} memory` }],
            label: `Each GPU holds ${formatBytes(perGpu.total)}: ${parts.map((p) => `${p.label} ${formatBytes(p.value)}`).join(', ')}. It has ${formatBytes(gpu.memory_bytes)}.`,
          })),
        byteAxis(max, this.narrow),
        legend(parts, { caption: 'What each GPU holds' }),
        h('div', { className: 'ts-chips-wrap' },
          h('ul', { className: 'ts-chips', 'aria-label': `${formatInteger(gpus)} GPUs, each ${training.fits ? 'within' : 'over'} its memory` }, chips),
          gpus > shown ? h('p', { className: 'ts-chips-more' }, `… ${formatInteger(gpus)} GPUs in all, each holding the same amount.`) : null));
    });

    return h('section', { className: 'ts-section', 'aria-labelledby': headingId },
      h(this.headingTag(1), { className: 'ts-section-title', id: headingId }, '3. Sharding: every GPU keeps only its slice'),
      h('div', { className: 'ts-prose' },
        h('p', null, 'No GPU holds a terabyte. With plain data parallelism every GPU keeps a full copy of everything, so adding GPUs adds speed but no memory. ',
          'ZeRO (and PyTorch’s FSDP) gives each GPU only its own slice: first of the optimizer states, then of the gradients, then of the weights themselves, fetching the other slices from its neighbours just when it needs them.')),
      h('div', { className: 'ts-panel' },
        h('div', { className: 'ts-panel-controls' },
          this.add(radioControl('parallel.zero_stage', 'Sharding (ZeRO stage)', [
            { value: 0, label: 'Stage 0', hint: 'plain data parallel (DDP): full copies' },
            { value: 1, label: 'Stage 1', hint: 'optimizer states sharded' },
            { value: 2, label: 'Stage 2', hint: '+ gradients (FSDP SHARD_GRAD_OP)' },
            { value: 3, label: 'Stage 3', hint: '+ weights (FSDP FULL_SHARD)' },
          ], this.onValue)).element,
          this.gpuControl(),
          h('details', { className: 'ts-deeper' },
            h('summary', null, 'Go deeper: tensor and pipeline parallelism'),
            h('div', { className: 'ts-deeper-body' },
              h('p', { className: 'ts-hint' }, 'Tensor parallelism splits each matrix across GPUs; pipeline parallelism gives each GPU a run of layers. Both divide the model states before ZeRO shares out the rest. GPUs must be a multiple of tensor × pipeline.'),
              this.add(selectControl('parallel.tensor', 'Tensor parallel degree', [1, 2, 4, 8, 16].map((v) => ({ value: v, label: String(v) })), this.onValue)).element,
              this.add(selectControl('parallel.pipeline', 'Pipeline parallel degree', [1, 2, 4, 8, 16, 32, 64].map((v) => ({ value: v, label: String(v) })), this.onValue)).element,
              this.add(selectControl('parallel.interleave', 'Interleaved stages per GPU', [1, 2, 3, 4, 8].map((v) => ({ value: v, label: v === 1 ? '1 (plain 1F1B)' : String(v) })), this.onValue,
                'Interleaving shrinks the pipeline bubble but keeps more activations in flight on the first stage.')).element,
              this.add(checkboxControl('training.sequence_parallel', 'Sequence parallelism', this.onValue, 'splits the remaining activations across the tensor-parallel group')).element))),
        h('figure', { className: 'ts-figure' }, status, figure,
          h('figcaption', null, 'Top: the whole model’s training state; a faded component is sharded and GPU 1 keeps only its outlined slice. Below: what one GPU holds against its memory (the dashed line). Every GPU holds the same amount: its own slices and its own micro-batch’s activations.'))),
      why('Why does sharding cost so little?', [
        'In data-parallel training every GPU ends each step with the same gradients and applies the same update, so keeping identical copies of the optimizer state on every GPU is pure waste. ZeRO stage 1 keeps one slice per GPU; stage 2 also reduces each gradient straight to the GPU that owns its slice; stage 3 even gathers each layer’s weights just before use and drops them after. The price is more communication, not more arithmetic.',
      ], 'per GPU, d data-parallel GPUs: stage 0 16Ψ; stage 1 4Ψ + 12Ψ/d; stage 2 2Ψ + 14Ψ/d; stage 3 16Ψ/d (Ψ parameters, mixed-precision Adam)',
      'Rajbhandari et al. 2019, “ZeRO: Memory Optimizations Toward Training Trillion Parameter Models”, §5 and Figure 1; PyTorch FSDP documentation.'));
  }

  private gpuControl(): HTMLElement {
    return this.add(rangeControl({
      path: 'parallel.gpus', label: 'GPUs', scale: stopScale(powersOfTwoUpTo(100000)),
      parse: (text) => parseInteger(text, 1, 100000), formatField: formatInteger, describe: (v) => `${formatInteger(v)} GPUs`,
      fieldLabel: 'GPUs, exact number',
    }, this.onValue)).element;
  }

  private timeSection(): HTMLElement {
    const headingId = uniqueId('heading');
    const equation = h('div', { className: 'ts-equations' });
    const figure = h('div', { className: 'ts-figure-body' });
    this.renderers.push((estimate) => {
      const compute = estimate.compute;
      const gpus = this.resolved.parallel.gpus;
      const attention = this.resolved.training.attention_flops;
      const utilisation = this.resolved.hardware.utilization;
      replace(equation,
        h('p', { className: 'ts-equation' },
          h('span', { className: 'ts-eq-op' }, attention ? '(6 ×' : '6 ×'),
          h('span', { className: 'ts-eq-term' }, h('span', { className: 'ts-eq-value' }, formatCount(estimate.active_params)), h('span', { className: 'ts-eq-unit' }, estimate.active_params !== estimate.params ? 'active parameters' : 'parameters')),
          attention ? h('span', { className: 'ts-eq-op' }, '+ attention)') : null,
          h('span', { className: 'ts-eq-op' }, '×'),
          h('span', { className: 'ts-eq-term' }, h('span', { className: 'ts-eq-value' }, formatCount(this.resolved.training.tokens)), h('span', { className: 'ts-eq-unit' }, 'tokens')),
          h('span', { className: 'ts-eq-op' }, '≈'),
          h('span', { className: 'ts-eq-term ts-eq-result' }, h('span', { className: 'ts-eq-value', 'data-figure': 'flops', 'data-value': String(compute.flops) }, formatScientific(compute.flops)), h('span', { className: 'ts-eq-unit' }, 'FLOPs'))),
        h('p', { className: 'ts-equation' },
          h('span', { className: 'ts-eq-term' }, h('span', { className: 'ts-eq-value' }, formatScientific(compute.hardware_flops)), h('span', { className: 'ts-eq-unit' }, compute.recompute_overhead > 0 ? 'FLOPs with recompute' : 'FLOPs')),
          h('span', { className: 'ts-eq-op' }, '÷'),
          h('span', { className: 'ts-eq-op' }, '('),
          h('span', { className: 'ts-eq-term' }, h('span', { className: 'ts-eq-value' }, formatInteger(gpus)), h('span', { className: 'ts-eq-unit' }, plural(gpus, 'GPU'))),
          h('span', { className: 'ts-eq-op' }, '×'),
          h('span', { className: 'ts-eq-term' }, h('span', { className: 'ts-eq-value' }, formatFlopsRate(estimate.gpu.peak_flops)), h('span', { className: 'ts-eq-unit' }, 'peak')),
          h('span', { className: 'ts-eq-op' }, '×'),
          h('span', { className: 'ts-eq-term' }, h('span', { className: 'ts-eq-value' }, formatPercent(utilisation)), h('span', { className: 'ts-eq-unit' }, 'utilisation')),
          h('span', { className: 'ts-eq-op' }, ')'),
          h('span', { className: 'ts-eq-op' }, '≈'),
          h('span', { className: 'ts-eq-term ts-eq-result' }, h('span', { className: 'ts-eq-value', 'data-figure': 'seconds', 'data-value': String(compute.seconds) }, formatDuration(compute.seconds)))));
      const cost = compute.cost > 0 ? h('li', null, h('span', null, 'Cost'), h('strong', { 'data-figure': 'cost', 'data-value': String(compute.cost) }, formatMoney(compute.cost))) : null;
      replace(figure,
        timeAxis([
          { seconds: compute.seconds_on_one_gpu, label: `on one ${shortGpu(estimate.gpu.name)}`, kind: 'one' },
          { seconds: compute.seconds, label: `on ${formatInteger(gpus)} ${plural(gpus, 'GPU')}`, kind: 'cluster' },
        ], `Time on a log scale: ${formatDuration(compute.seconds_on_one_gpu)} on one GPU, ${formatDuration(compute.seconds)} on ${formatInteger(gpus)} ${plural(gpus, 'GPU')}.`),
        h('ul', { className: 'ts-facts' },
          h('li', null, h('span', null, 'On one GPU'), h('strong', { 'data-figure': 'seconds-on-one-gpu', 'data-value': String(compute.seconds_on_one_gpu) }, formatDuration(compute.seconds_on_one_gpu))),
          h('li', null, h('span', null, `On ${formatInteger(gpus)} ${plural(gpus, 'GPU')}`), h('strong', null, formatDuration(compute.seconds))),
          h('li', null, h('span', null, 'GPU-hours'), h('strong', { 'data-figure': 'gpu-hours', 'data-value': String(compute.gpu_hours) }, formatCount(compute.gpu_hours))),
          h('li', null, h('span', null, 'Model FLOPs utilisation'), h('strong', { 'data-figure': 'mfu', 'data-value': String(compute.mfu) }, formatPercent(compute.mfu))),
          compute.energy_joules > 0 ? h('li', null, h('span', null, 'GPU energy'), h('strong', null, formatEnergy(compute.energy_joules))) : null,
          cost));
    });

    const gpuChoices = [
      ...this.engine.gpus.map((gpu) => ({ value: gpu.id, label: `${gpu.name} — ${formatBytes(gpu.memory_bytes)}, ${formatFlopsRate(gpu.peak_flops)}` })),
      { value: CUSTOM_GPU, label: 'Your own GPU: set its memory and peak below' },
    ];
    return h('section', { className: 'ts-section', 'aria-labelledby': headingId },
      h(this.headingTag(1), { className: 'ts-section-title', id: headingId }, '4. Time: staggering amounts of simple arithmetic'),
      h('div', { className: 'ts-prose' },
        h('p', null, 'Training costs about 6 floating-point operations per parameter per token: 2 for the forward pass, 4 for the backward. ',
          'Multiply by trillions of tokens and the count has 25 digits. Divide by what GPUs really sustain — well under half their peak — and it becomes clear why labs buy GPUs by the ten thousand.')),
      equation,
      h('div', { className: 'ts-panel' },
        h('div', { className: 'ts-panel-controls' },
          this.add(rangeControl({
            path: 'training.tokens', label: 'Training tokens', scale: logScale(1e9, 1e14, 20),
            parse: (text) => bounded(parseQuantity(text, 'count'), 1e6, 1e16, (n) => formatCount(n)),
            formatField: (v) => formatCount(v, { short: true, significant: 4 }), describe: (v) => `${formatCount(v)} tokens`,
            fieldLabel: 'Training tokens, exact number (e.g. 15.6T)',
          }, this.onValue)).element,
          this.gpuControl(),
          this.add(selectControl('hardware.gpu', 'GPU type', gpuChoices, this.onValue)).element,
          this.add(rangeControl({
            path: 'hardware.utilization', label: 'Utilisation (share of peak sustained)', scale: linearScale(0.01, 1, 0.01),
            parse: (text) => bounded(parseQuantity(text, 'fraction'), 0.001, 1, (n) => formatPercent(n)),
            formatField: (v) => formatPercent(v, 3), describe: (v) => `${formatPercent(v, 3)} of peak`,
            fieldLabel: 'Utilisation, exact (e.g. 40% or 0.4)',
          }, this.onValue)).element,
          h('details', { className: 'ts-deeper' },
            h('summary', null, 'Go deeper: your own GPU, attention FLOPs, price'),
            h('div', { className: 'ts-deeper-body' },
              this.add(rangeControl({
                path: 'hardware.memory_bytes', label: 'GPU memory', scale: logScale(8e9, 1e12, 20),
                parse: (text) => bounded(parseQuantity(text, 'bytes'), 1e9, 1e13, (n) => formatBytes(n)),
                formatField: (v) => formatBytes(v), describe: (v) => `${formatBytes(v)} of memory per GPU`,
                fieldLabel: 'GPU memory, exact (e.g. 96 GB)',
              }, this.onValue)).element,
              this.add(rangeControl({
                path: 'hardware.peak_flops', label: 'GPU peak (dense 16-bit)', scale: logScale(1e13, 1e16, 20),
                parse: (text) => bounded(parseQuantity(text, 'flops_rate'), 1e12, 1e17, (n) => formatFlopsRate(n)),
                formatField: (v) => formatFlopsRate(v), describe: (v) => `${formatFlopsRate(v)} peak per GPU`,
                fieldLabel: 'GPU peak, exact (e.g. 1,200 TFLOP/s)',
              }, this.onValue)).element,
              this.add(checkboxControl('training.attention_flops', 'Count attention FLOPs', this.onValue, 'PaLM’s 12 · layers · hidden · sequence per token, on top of 6N')).element,
              this.add(rangeControl({
                path: 'hardware.price_per_gpu_hour', label: 'Price per GPU-hour (US$)', scale: linearScale(0, 10, 0.1),
                parse: (text) => bounded(parseQuantity(text.replace(/^\$/, ''), 'count'), 0, 1000, (n) => `$${n}`),
                formatField: (v) => formatNumber(v, 3), describe: (v) => `${formatNumber(v, 3)} dollars per GPU-hour`,
              }, this.onValue)).element))),
        h('figure', { className: 'ts-figure' }, figure,
          h('figcaption', null, 'Time on a logarithmic scale: each grid step is a factor of ten or more.'))),
      why('Why 6 × parameters × tokens?', [
        'Each parameter takes part in one multiply and one add per token on the forward pass (2 FLOPs). The backward pass computes two things per weight — the gradient for the layer below and the gradient for the weight itself — so it costs twice as much (4 FLOPs). Time is then that count divided by how fast the GPUs really go: their peak times the share of it they sustain (MFU).',
      ], 'training FLOPs ≈ 6 · N · D; time = FLOPs ÷ (GPUs × peak FLOP/s × utilisation); GPU-hours = GPUs × time',
      'Kaplan et al. 2020, “Scaling Laws for Neural Language Models”; Chowdhery et al. 2022, “PaLM”, App. B; Llama 3 Herd of Models (Meta, 2024).'));
  }

  private configSection(): HTMLElement {
    const headingId = uniqueId('heading');
    const textareaId = uniqueId('config');
    const errorsId = uniqueId('config-errors');
    const textarea = h('textarea', {
      id: textareaId, className: 'ts-textarea', rows: 8, spellcheck: 'false', autocomplete: 'off',
      placeholder: '{ "num_hidden_layers": 32, "hidden_size": 4096, … }', 'aria-describedby': errorsId,
    });
    const result = h('div', { className: 'ts-config-result', id: errorsId, 'aria-live': 'polite' });
    const useConfig = () => {
      const parsed = parseHfConfig(textarea.value, this.engine.module);
      if (parsed.errors.length > 0 || !parsed.architecture) {
        textarea.setAttribute('aria-invalid', 'true');
        replace(result, h('p', { className: 'ts-field-error' }, 'This config cannot be used yet:'),
          h('ul', { className: 'ts-errors ts-config-errors' }, parsed.errors.map((error) => h('li', { 'data-config-field': error.field }, h('code', null, error.field), ': ', error.message))));
        return;
      }
      const previous = this.overrides;
      this.setModel({ architecture: parsed.architecture }, false);
      const candidate = this.overrides;
      this.overrides = previous;
      const check = this.engine.estimate(candidate);
      if (check.errors.length > 0) {
        textarea.setAttribute('aria-invalid', 'true');
        replace(result, h('p', { className: 'ts-field-error' }, 'The engine cannot use this model:'),
          h('ul', { className: 'ts-errors ts-config-errors' }, check.errors.map((error) => h('li', { 'data-config-field': error.field }, h('code', null, error.field), ': ', error.message))));
        return;
      }
      textarea.removeAttribute('aria-invalid');
      this.configName = parsed.name;
      this.overrides = candidate;
      this.commit({ announce: true, writeHash: true });
      replace(result, h('p', { className: 'ts-config-ok' }, h('span', { 'aria-hidden': 'true' }, '✓ '),
        `Using ${parsed.name}: `, h('strong', null, `${formatCount(check.params)} parameters`), ' — every figure above now describes it.'),
        parsed.notes.length > 0 ? h('ul', { className: 'ts-notes' }, parsed.notes.map((note) => h('li', null, note))) : null);
    };
    this.renderers.push(() => {
      const presetControl = this.controls.find((c) => c.path === MODEL_PRESET) as ReturnType<typeof selectControl> | undefined;
      const option = presetControl && [...presetControl.select.options].find((o) => o.value === FROM_CONFIG);
      if (option) {
        const fromConfig = this.modelChoice() === FROM_CONFIG;
        option.disabled = !fromConfig;
        option.textContent = fromConfig ? `Your model: ${this.configName}` : 'Your config.json (see “Your own model”)';
      }
    });
    return h('section', { className: 'ts-section', 'aria-labelledby': headingId },
      h(this.headingTag(1), { className: 'ts-section-title', id: headingId }, '5. Your own model'),
      h('div', { className: 'ts-prose' },
        h('p', null, 'Paste a model’s config.json from Hugging Face (its “Files” tab). The page reads the shape — layers, hidden size, heads, MLP size, vocabulary, experts — and the engine counts the parameters and redoes every figure above.')),
      h('div', { className: 'ts-control' },
        h('label', { for: textareaId, className: 'ts-label' }, 'config.json'),
        textarea,
        h('div', { className: 'ts-button-row' },
          h('button', { type: 'button', className: 'ts-button ts-button-primary', 'data-action': 'use-config', onclick: useConfig }, 'Use this model'),
          h('button', { type: 'button', className: 'ts-button ts-button-quiet', onclick: () => { textarea.value = EXAMPLE_CONFIG; useConfig(); } }, 'Try GPT-2’s config')),
        result),
      why('What does the page read?', [
        'num_hidden_layers, hidden_size, num_attention_heads, num_key_value_heads, intermediate_size, vocab_size and tie_word_embeddings (or GPT-2’s n_layer, n_embd, n_head, n_positions). hidden_act “silu” means a gated SwiGLU MLP with three matrices; “gelu” a plain one with two. num_local_experts and num_experts_per_tok describe a mixture of experts: all experts count for memory, only the active ones for compute.',
      ], 'parameters per layer ≈ attention (2h² + 2h²·kv/heads) + MLP (3·h·f gated, 2·h·f plain) × experts; plus embeddings V·h (twice if untied)',
      'Hugging Face Transformers configuration docs; Touvron et al. 2023 and Llama 3 (2024) for the gated MLP; Radford et al. 2019 for GPT-2.'));
  }
}

function bounded(result: ParseResult, min: number, max: number, describe: (n: number) => string): ParseResult {
  return result.ok ? checkRange(result.value, min, max, describe) : result;
}

function powersOf(min: number, max: number): number[] {
  const stops: number[] = [];
  for (let value = min; value <= max; value *= 2) stops.push(value);
  return stops;
}

/** A linear slider scale in steps of `step` (rounded so 0.1 + 0.2 shows as 0.3). */
function linearScale(min: number, max: number, step: number) {
  const steps = Math.round((max - min) / step);
  return {
    steps,
    valueAt: (position: number) => Number((min + Math.min(steps, Math.max(0, Math.round(position))) * step).toFixed(6)),
    positionOf: (value: number) => Math.min(steps, Math.max(0, Math.round((value - min) / step))),
  };
}

function precisionLabel(value: string): string {
  const labels: Record<string, string> = {
    fp32: 'FP32 (4 bytes)', bf16: 'BF16 (2 bytes)', fp16: 'FP16 (2 bytes)', fp8: 'FP8 (1 byte)', int8: 'INT8 (1 byte)', int4: 'INT4 (half a byte)',
  };
  return labels[value] ?? value;
}

/** "NVIDIA H100 SXM" → "H100 SXM": short enough for a chart label. */
function shortGpu(name: string): string {
  return name.replace(/^(NVIDIA|AMD|Google)\s+(GeForce\s+|Instinct\s+)?/, '');
}

function describeErrors(errors: FieldError[]): string {
  const shown = errors.slice(0, 3).map((error) => `${error.field}: ${error.message}`).join('; ');
  return errors.length > 3 ? `${shown}; and more` : shown;
}

function plural(count: number, noun: string): string {
  return count === 1 ? noun : `${noun}s`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
