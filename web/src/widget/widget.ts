// The widget: builds the page inside a given root, keeps one Scenario, asks the engine for an
// Estimate on every input, and redraws every figure from it. Nothing here computes a figure:
// numbers on screen are engine values, formatted (units.ts). The widget owns the state (the
// learner's overrides, the estimate on screen, the URL hash) and hands each section component
// (web/src/sections/) what it needs; each section is built once and updated in place.
//
//   controls ──▶ Scenario ──▶ engine.estimate ──▶ Estimate ──▶ render
//      ▲             │ URL hash
//      └─────────────┘

import { rangeControl, type Control } from '../controls/controls';
import { h, replace, setText } from '../dom/dom';
import { engineFor, loadEngine, type Engine } from '../engine/engine';
import { partLabels } from '../figures/parts';
import { chooseLanguage, DIRECTIONS, ENGLISH, type Language, type Translate, type WidgetLanguage } from '../i18n/i18n';
import { scriptUrl, widgetLanguage } from '../i18n/packs';
import { bindUnitsEngine, unitsFor, type Units } from '../engine/units';
import { decodeHash, encodeHash } from './hash';
import { FIRST_VIEW_ATTRIBUTE, refusesFirstView } from '../first-view/first-view';
import { RecentResults } from './recent';
import { INPUT_REST_MS, NearViewport, ON_SCREEN_MARGIN, STALE_IDLE_TIMEOUT_MS, nextTask, whenNear, whenRested } from './lazy';
import { clone, deleteField, getField, mergeScenario, setField } from '../engine/scenario';
import { activationSection } from '../sections/activations';
import { configSection } from '../sections/config';
import type { HeadingTag, NumberedSection, SectionContext, SectionView } from '../sections/context';
import { memorySection } from '../sections/memory';
import { ANY_SIZE, FROM_CONFIG, MODEL_PARAMS, MODEL_PRESET, modelSection } from '../sections/model';
import { shardingSection } from '../sections/sharding';
import { stepSection } from '../sections/step/section';
import { CUSTOM_GPU, timeSection } from '../sections/time';
import type { Estimate, FieldError, PartialScenario, Scenario, StepTimeline } from '../engine/types';
import { readStepTimeline } from '../engine/step-timeline';
import { mountQuiz, type BankTranslations, type QuizHandle, type QuizStorage, type ShowMeTarget } from '../quiz/quiz';
import { landOnFigure } from './showme';
import defaultBank from '../../quiz/bank.json';
import type { emitXapi } from '../../ship/xapi';
import type { AuthorBank } from '../quiz/source';

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
  /** An author's own question bank (quiz/source.ts); its `bank` null: the built-in one, with its `problem` shown. */
  quizBank?: AuthorBank | null;
  /** Show the widget's own title and introduction. Default: true (the page); the embeds turn it
   *  off unless asked, since their course page has its own (docs/embedding.md). */
  header?: boolean;
  /** The quiz's xAPI activity IRI (web/ship/xapi.ts); default urn:trainscope:quiz:<bank id>. */
  xapiActivity?: string;
  /** Emits the quiz's answers as xAPI statements (web/ship/xapi.ts's emitXapi). The embeds pass it;
   *  the standalone page has no host to forward them to, and leaves the code out of its bundle. */
  xapi?: typeof emitXapi;
  /** The widget's language as a tag ("de", "es-419"; docs/i18n.md). Default: the nearest `lang`
   *  above the root, else the document's <html lang>. A language without words is English, with a console warning. */
  language?: string;
}

/** The tag a root's language comes from: the nearest [lang] at or above it (through a shadow root's host), else <html lang>. */
function inheritedLanguageTag(root: HTMLElement | ShadowRoot): string | null {
  const element = root instanceof ShadowRoot ? root.host : root;
  const marked = element.closest('[lang]');
  return marked ? marked.getAttribute('lang') : document.documentElement.getAttribute('lang');
}

export interface TrainscopeHandle {
  readonly engine: Engine;
  readonly element: HTMLElement;
  /** The language the widget speaks (English when the one asked for has no words or its pack failed). */
  readonly language: Language;
  /** The widget's translator, for hosts that write around it in its language. */
  readonly t: Translate;
  /** The scenario on screen, every field resolved by the engine. */
  scenario(): Scenario;
  /** Only the fields the learner or the link set (what the URL hash holds). */
  overrides(): PartialScenario;
  /** The estimate on screen (the last valid one). */
  estimate(): Estimate;
  setScenario(scenario: PartialScenario): void;
  /** Replaces the host's problems (as MountOptions.problems); none hides their notice. */
  setProblems(problems: readonly string[]): void;
  destroy(): void;
}

/** Narrower than a phone in landscape: fewer axis ticks and GPU chips. */
const NARROW_BELOW_PX = 560;

/** How long the input must rest before the address is rewritten. */
const HASH_SETTLE_MS = 250;

/** True when the document already carries the widget's stylesheet (the page's <link>, or the single file's <style>). */
export function documentHasStyles(doc: Document = document): boolean {
  return doc.querySelector('link[rel="stylesheet"][href$="trainscope.css"], style[data-trainscope-styles]') !== null;
}

/**
 * The stylesheet for a root whose document lacks it. The element's script carries it as text
 * (adopted: CSP-safe, in shadow roots too); the page's script does not (its page links it, and
 * the copy cost the English page 7 KB gzipped), so a host mounting the page's script elsewhere
 * gets trainscope.css from beside the script, as a <link> (style-src 'self'), waited for.
 */
function adoptStyles(root: HTMLElement | ShadowRoot): Promise<void> {
  const host = root instanceof ShadowRoot ? root : (root.getRootNode() as Document | ShadowRoot);
  const css = typeof TRAINSCOPE_CSS === 'string' ? TRAINSCOPE_CSS : '';
  if (!css) return linkStyles(host);
  if ('adoptedStyleSheets' in host && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    // Constructed stylesheets are not subject to CSP's style-src and work in shadow roots. One
    // sheet serves every widget of the page: parsing the stylesheet cost 10-20 ms per widget.
    const sheet = sharedSheet(css);
    if (!host.adoptedStyleSheets.includes(sheet)) host.adoptedStyleSheets = [...host.adoptedStyleSheets, sheet];
    return Promise.resolve();
  }
  const parent = host instanceof ShadowRoot ? host : document.head;
  if (!parent.querySelector('style[data-trainscope]')) parent.appendChild(h('style', { 'data-trainscope': 'true' }, css));
  return Promise.resolve();
}

let constructedSheet: CSSStyleSheet | null = null;

/** The stylesheet, parsed once for the page (a constructed sheet is adopted by any root of its document). */
function sharedSheet(css: string): CSSStyleSheet {
  if (!constructedSheet) {
    constructedSheet = new CSSStyleSheet();
    constructedSheet.replaceSync(css);
  }
  return constructedSheet;
}

function linkStyles(host: Document | ShadowRoot): Promise<void> {
  const parent = host instanceof ShadowRoot ? host : document.head;
  if (parent.querySelector('link[rel="stylesheet"][href$="trainscope.css"]')) return Promise.resolve();
  const link = h('link', { rel: 'stylesheet', href: new URL('trainscope.css', scriptUrl || document.baseURI).href });
  // A stylesheet that fails to load leaves the widget unstyled but working: never a failed mount.
  const loaded = new Promise<void>((done) => {
    link.addEventListener('load', () => done(), { once: true });
    link.addEventListener('error', () => done(), { once: true });
  });
  parent.appendChild(link);
  return loaded;
}

/**
 * The page's first view, if it has one: dist/index.html and the offline file carry the default
 * scenario's opening sections as the widget drew them at build time (first-view.ts, docs/page.md),
 * so a figure is on screen before the engine's script has run. It is inert and gives way to the
 * widget once that is built. A link that opens something else (a hash, ?lang=) must not show the
 * default first: the head's guard hides it before it paints, and here it goes at once.
 */
function takeFirstView(root: HTMLElement | ShadowRoot): HTMLElement | null {
  const firstView = root.querySelector<HTMLElement>(`:scope > [${FIRST_VIEW_ATTRIBUTE}]`);
  // The guard hid it already (or a host's own policy refused the guard): either way it goes now.
  if (firstView && refusesFirstView(window.location)) {
    firstView.remove();
    return null;
  }
  return firstView;
}

export async function mountTrainscope(root: HTMLElement | ShadowRoot, options: MountOptions = {}): Promise<TrainscopeHandle> {
  const styled = options.injectStyles !== false ? adoptStyles(root) : Promise.resolve();
  const tag = options.language ?? inheritedLanguageTag(root);
  const chosen = chooseLanguage(tag);
  if (chosen.refused !== null) console.warn(`trainscope: no words for the language “${chosen.refused}”; showing English.`);
  // In another language the loading line waits for its words (English has them at once): no English flashes first.
  const loadingLine = h('p', { className: 'ts-loading' });
  const container = h('div', { className: 'ts-root', 'aria-busy': 'true', 'data-theme': options.theme ?? 'auto' }, loadingLine);
  const firstView = takeFirstView(root);
  // The first view stays on screen while the widget builds out of sight, then gives way in one frame.
  container.hidden = firstView !== null;
  root.appendChild(container);
  const showWidget = () => {
    firstView?.remove();
    container.hidden = false;
  };
  // The engine loads while the language pack does; its failure is reported below, in the widget's words.
  const sharedEngine = loadEngine();
  sharedEngine.catch(() => undefined);
  const words = chosen.language === 'en' ? ENGLISH : await widgetLanguage(chosen.language);
  container.setAttribute('lang', words.language);
  container.setAttribute('dir', DIRECTIONS[words.language]);
  const { t } = words;
  loadingLine.textContent = t('page.loading', 'Loading the trainscope engine…');
  let engine: Engine;
  try {
    const shared = await sharedEngine;
    bindUnitsEngine(shared);
    engine = engineFor(shared, words);
  } catch (error) {
    showWidget();
    replace(container, h('p', { className: 'ts-notice ts-notice-error', role: 'alert' },
      t('page.engine_failed', 'The simulation engine could not start ({reason}). The page needs WebAssembly.', { reason: error instanceof Error ? error.message : String(error) })));
    throw error;
  }
  // Each widget builds in its own task, so one page's several widgets paint one by one.
  await styled;
  await nextTask();
  const widget = new Widget(engine, container, options, words);
  showWidget();
  container.removeAttribute('aria-busy');
  container.setAttribute('data-ts-ready', 'true');
  // The first computed figure is on screen: a mark for benchmarks (bench/page_bench.mjs) and tools.
  performance.mark?.('trainscope-first-figure');
  return widget.handle();
}

class Widget {
  private readonly engine: Engine;
  private readonly words: WidgetLanguage;
  private readonly t: Translate;
  /** The widget's writers of quantities, in its language. */
  private readonly units: Units;
  private readonly root: HTMLElement;
  private readonly syncHash: boolean;
  private readonly options: MountOptions;
  private readonly sections: ReadonlySet<Section>;
  private quiz: QuizHandle | null = null;
  private cancelQuiz: (() => void) | null = null;
  private readonly defaults: Scenario;
  /** What the learner (or the link) set: the engine fills in everything else. This is the state. */
  private overrides: PartialScenario;
  /** The whole scenario as the engine resolved it for the figures on screen. */
  private resolved: Scenario;
  private good!: { estimate: Estimate; single: Estimate };
  private readonly controls: Control[] = [];
  /** The sections built so far; an off-screen one joins when it nears the viewport. */
  private readonly views: SectionView[] = [];
  /** Sections far off screen that have not shown the latest estimate yet; updated when idle or near. */
  private readonly staleViews = new Set<SectionView>();
  private readonly nearViewport = new NearViewport((element) => this.refreshIfStale(element), ON_SCREEN_MARGIN);
  private cancelStaleRefresh: (() => void) | null = null;
  private readonly cancels: Array<() => void> = [];
  /** Builds a pending section now (show-me lands in it); each section by its data-ts-section name. */
  private readonly buildNow = new Map<string, () => void>();
  private presetSelect: HTMLSelectElement | null = null;
  private notesShown = '';
  /** True while the notice shows the host's problems (not a link's), so that fixing them hides it. */
  private noticeShowsProblems = false;
  /** The scenario behind `good.single`, so an input that changes only parallel settings reuses it. */
  private singleKey = '';
  private readonly generalErrors: HTMLElement;
  private readonly notice: HTMLElement;
  private readonly status: HTMLElement;
  private readonly notes: HTMLElement;
  private announceTimer: ReturnType<typeof setTimeout> | undefined;
  private lastAnnouncement = '';
  private readonly onHashChange = () => this.loadFromHash();
  /** Leaving or reloading the page writes a pending hash first, so the address carries the last change. */
  private readonly onPageHide = () => {
    if (this.hashTimer === undefined && this.hashIdle === undefined) return;
    this.cancelHashWrite();
    this.writeHash();
  };
  private hashTimer: ReturnType<typeof setTimeout> | undefined;
  private hashIdle: number | undefined;
  /** The step section's playhead (an event index) while the learner or a link placed it; in the hash. */
  private stepPlayhead: number | null = null;
  private playheadListener: ((index: number | null) => void) | null = null;
  /** Recent step timelines: a resize redraws without asking again, and so does a choice asked before. */
  private readonly recentTimelines = new RecentResults<StepTimeline>(4);
  /** Recent estimates: each step asks for two (the scenario, and one copy on one GPU). */
  private readonly recentEstimates = new RecentResults<Estimate>(8);
  private readonly resizeObserver: ResizeObserver | null;
  private narrow = false;

  constructor(engine: Engine, root: HTMLElement, options: MountOptions, words: WidgetLanguage) {
    this.engine = engine;
    this.words = words;
    this.t = words.t;
    this.units = unitsFor(engine);
    const { t } = this;
    this.root = root;
    this.syncHash = options.syncHash !== false;
    this.options = options;
    this.sections = new Set(options.sections && options.sections.length > 0 ? options.sections : ALL_SECTIONS);
    this.defaults = clone(engine.defaultScenario);
    this.overrides = clone(options.scenario ?? {});
    this.resolved = clone(this.defaults);
    this.notice = h('div', { className: 'ts-notice', role: 'alert' });
    this.notice.hidden = true;
    this.generalErrors = h('ul', { className: 'ts-errors', 'aria-label': t('page.errors_label', 'Problems with the scenario') });
    this.generalErrors.hidden = true;
    this.notes = h('ul', { className: 'ts-notes', 'aria-label': t('page.notes_label', 'Notes from the engine') });
    this.status = h('p', { className: 'ts-visually-hidden', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
    this.build();
    // The width arrives with the observer's first report, after the first layout: reading it here
    // would force a layout of the whole page before anything is drawn. Until then the page is
    // drawn for a wide screen; a narrow one is redrawn before the first paint.
    this.resizeObserver = typeof ResizeObserver === 'function'
      ? new ResizeObserver((entries) => this.onResize(entries[entries.length - 1]?.contentRect.width ?? 0))
      : null;
    this.resizeObserver?.observe(this.root);

    let start = this.overrides;
    if (this.syncHash) {
      window.addEventListener('hashchange', this.onHashChange);
      window.addEventListener('pagehide', this.onPageHide);
      const fromHash = this.scenarioFromHash();
      if (fromHash) start = fromHash;
    }
    const first = this.estimateOf(start);
    if (first.errors.length > 0 && start !== this.overrides) {
      this.showNotice(t('page.link_problems', 'This link’s scenario has problems ({problems}), so the page shows the default scenario instead.', { problems: describeErrors(t, first.errors) }));
      start = this.overrides;
    }
    this.overrides = start;
    this.commit({ announce: false, writeHash: false });
    if (!this.good) {
      // Even the starting scenario was refused (e.g. embed options with a typo): use the engine's defaults.
      this.showNotice(t('page.start_problems', 'The starting scenario has problems ({problems}); showing the default scenario instead.', { problems: describeErrors(t, this.estimateOf(this.overrides).errors) }));
      this.overrides = {};
      this.commit({ announce: false, writeHash: false });
    }
    // A refused starting scenario's notice (above) says more than the settings' problems: keep it.
    if (this.notice.hidden) this.setProblems(options.problems ?? []);
  }

  /**
   * The engine's estimate, remembered for the last few scenarios asked: starting up asks for the
   * same scenario up to three times (the accounting choices, the link's check, the first figures),
   * and a learner comparing settings asks the same ones again.
   */
  private estimateOf(scenario: PartialScenario): Estimate {
    return this.recentEstimates.get(JSON.stringify(scenario), () => this.engine.estimate(scenario));
  }

  private setProblems(problems: readonly string[]): void {
    if (problems.length > 0) {
      // One line per attribute, so each can be found (and fixed) on its own.
      this.showNotice(this.t('page.settings_problems', 'The widget uses its defaults for these settings:'), problems);
      this.noticeShowsProblems = true;
    } else if (this.noticeShowsProblems) this.hideNotice();
  }

  handle(): TrainscopeHandle {
    return {
      engine: this.engine,
      element: this.root,
      language: this.words.language,
      t: this.t,
      scenario: () => clone(this.resolved),
      overrides: () => clone(this.overrides),
      estimate: () => clone(this.good.estimate),
      setScenario: (partial) => {
        this.overrides = clone(partial);
        this.commit({ announce: true, writeHash: true });
      },
      setProblems: (problems) => this.setProblems(problems),
      destroy: () => {
        this.cancelQuiz?.();
        for (const cancel of this.cancels) cancel();
        this.cancelStaleRefresh?.();
        this.nearViewport.disconnect();
        this.quiz?.destroy();
        window.removeEventListener('hashchange', this.onHashChange);
        window.removeEventListener('pagehide', this.onPageHide);
        this.resizeObserver?.disconnect();
        clearTimeout(this.announceTimer);
        this.cancelHashWrite();
        this.root.remove();
      },
    };
  }

  // ── State ────────────────────────────────────────────────────────────────────────────────

  private scenarioFromHash(): PartialScenario | null {
    const decoded = decodeHash(window.location.hash, this.engine.module, this.t);
    if (decoded.kind === 'empty') this.stepPlayhead = decoded.playhead ?? null;
    if (decoded.kind === 'empty' || decoded.kind === 'anchor') return null;
    if (decoded.kind === 'invalid') {
      this.showNotice(this.t('page.link_invalid', '{problem}, so the page shows the default scenario instead.', { problem: capitalise(decoded.message) }));
      return null;
    }
    this.hideNotice();
    this.stepPlayhead = decoded.playhead ?? null;
    return decoded.scenario;
  }

  private loadFromHash(): void {
    // The address changed under us (back, forward, an edited link): it wins over a pending write.
    this.cancelHashWrite();
    if (window.location.hash === encodeHash(this.overrides, this.stepPlayhead)) return;
    if (decodeHash(window.location.hash).kind === 'anchor') return;
    const playheadBefore = this.stepPlayhead;
    const fromHash = this.scenarioFromHash() ?? {};
    const check = this.estimateOf(fromHash);
    if (check.errors.length > 0) {
      this.showNotice(this.t('page.link_problems', 'This link’s scenario has problems ({problems}), so the page shows the default scenario instead.', { problems: describeErrors(this.t, check.errors) }));
      this.overrides = {};
    } else this.overrides = fromHash;
    this.commit({ announce: true, writeHash: false });
    // After the redraw: the link's event index counts the events of the link's scenario.
    if (this.stepPlayhead !== playheadBefore) this.playheadListener?.(this.stepPlayhead);
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
    this.commit({ announce: true, writeHash: true, fromInput: true });
  };

  /**
   * `fromInput`: a learner moving a control, where the step's cost is what they feel, so sections
   * far off screen may catch up when idle. Everything else (a link, a preset, "show me") updates
   * every section at once.
   */
  private commit(options: { announce: boolean; writeHash: boolean; fromInput?: boolean }): void {
    const estimate = this.estimateOf(this.overrides);
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
      let single = singleUnchanged ? this.good.single : this.estimateOf(singleScenario);
      if (single.errors.length > 0) single = estimate;
      this.singleKey = single === estimate ? '' : singleKey;
      this.good = { estimate, single };
      this.updateViews(singleUnchanged, options.fromInput === true);
      this.updatePresetChoice();
      this.renderNotes(estimate.notes);
      if (options.writeHash) this.scheduleHashWrite();
      if (options.announce) this.scheduleAnnouncement();
    }
    this.syncControls();
  }

  /**
   * Sections and parts on screen (ON_SCREEN_MARGIN) show the new estimate now; the others wait
   * until the input rests, then an idle moment, or until they come near, whichever is first, so a
   * slider step costs only what the learner can see.
   */
  private updateViews(singleUnchanged: boolean, offscreenMayWait: boolean): void {
    for (const view of this.views) {
      if (singleUnchanged && view.singleOnly && !this.staleViews.has(view)) continue;
      if (!offscreenMayWait || this.nearViewport.isNear(view.element)) {
        this.staleViews.delete(view);
        view.update(this.good.estimate, this.good.single);
      } else {
        this.staleViews.add(view);
      }
    }
    if (this.staleViews.size > 0) {
      this.cancelStaleRefresh?.();
      this.cancelStaleRefresh = whenRested(() => {
        this.cancelStaleRefresh = null;
        for (const view of this.staleViews) view.update(this.good.estimate, this.good.single);
        this.staleViews.clear();
      }, INPUT_REST_MS, STALE_IDLE_TIMEOUT_MS);
    }
  }

  private refreshIfStale(element: Element): void {
    for (const view of this.staleViews) {
      if (view.element !== element) continue;
      this.staleViews.delete(view);
      view.update(this.good.estimate, this.good.single);
    }
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

  /**
   * The address follows the scenario once the input settles: a short pause, then an idle moment
   * after the frame is drawn. replaceState makes Chromium lay out the page when layout is dirty,
   * so writing it on every slider step cost more than the figures themselves.
   */
  private scheduleHashWrite(): void {
    if (!this.syncHash) return;
    this.cancelHashWrite();
    this.hashTimer = setTimeout(() => {
      this.hashTimer = undefined;
      if (typeof requestIdleCallback === 'function') this.hashIdle = requestIdleCallback(() => this.writeHash(), { timeout: 1000 });
      else this.writeHash();
    }, HASH_SETTLE_MS);
  }

  private cancelHashWrite(): void {
    clearTimeout(this.hashTimer);
    this.hashTimer = undefined;
    if (this.hashIdle !== undefined && typeof cancelIdleCallback === 'function') cancelIdleCallback(this.hashIdle);
    this.hashIdle = undefined;
  }

  private writeHash(): void {
    this.hashIdle = undefined;
    const hash = encodeHash(this.overrides, this.stepPlayhead);
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
      if (control) control.setError(this.t('page.field_error', '{message}. The figures still show the last valid scenario.', { message: error.message }));
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
    if (this.generalErrors.hidden) return;
    this.generalErrors.hidden = true;
    this.generalErrors.replaceChildren();
  }

  /** The engine's notes change with the scenario's kind, not on every step: redraw only then. */
  private renderNotes(notes: string[]): void {
    const key = notes.join('\n');
    if (key === this.notesShown) return;
    this.notesShown = key;
    // The items on screen take the new words; only a longer or shorter list adds or drops one.
    notes.forEach((note, index) => setText(this.notes.children[index] ?? this.notes.appendChild(h('li')), note));
    while (this.notes.children.length > notes.length) this.notes.lastElementChild?.remove();
    this.notes.hidden = notes.length === 0;
  }

  /** The preset list's "your config" entry names the model read from a config while it is on screen. */
  private updatePresetChoice(): void {
    const option = this.presetSelect && [...this.presetSelect.options].find((o) => o.value === FROM_CONFIG);
    if (!option) return;
    const fromConfig = this.modelChoice() === FROM_CONFIG;
    option.disabled = !fromConfig;
    // The name is part of the scenario (model.name), so a shared link names the model too.
    const text = fromConfig ? this.t('page.your_model', 'Your model: {name}', { name: this.overrides.model?.name ?? this.t('page.your_model_unnamed', 'your model') })
      : this.t('model.from_config', 'Your config.json (paste below)');
    if (option.textContent !== text) option.textContent = text;
  }

  private showNotice(message: string, items: readonly string[] = []): void {
    replace(this.notice, h('div', null, h('p', null, message), items.length > 0 ? h('ul', { className: 'ts-notice-list' }, items.map((item) => h('li', null, item))) : null),
      h('button', { type: 'button', className: 'ts-button ts-button-quiet', onclick: () => this.hideNotice() }, this.t('page.dismiss', 'Dismiss')));
    this.notice.hidden = false;
    this.noticeShowsProblems = false;
  }

  private hideNotice(): void {
    this.notice.hidden = true;
    this.noticeShowsProblems = false;
  }

  /** Polite and debounced: one summary after the learner pauses, not one per slider step. */
  private scheduleAnnouncement(): void {
    clearTimeout(this.announceTimer);
    this.announceTimer = setTimeout(() => {
      const { estimate } = this.good;
      const training = estimate.training;
      const { formatBytes, formatDuration, formatInteger } = this.units;
      const values = {
        per_gpu: formatBytes(training.per_gpu.total), memory: formatBytes(estimate.gpu.memory_bytes),
        time: formatDuration(estimate.compute.seconds), gpus: formatInteger(this.resolved.parallel.gpus),
      };
      const sentence = training.fits
        ? this.t('page.status.fits', 'Training fits: {per_gpu} per GPU of {memory}. Training time {time} on {gpus} GPUs.', values)
        : this.t('page.status.no_fit', 'Training does not fit: {per_gpu} per GPU of {memory}. Training time {time} on {gpus} GPUs.', values);
      if (sentence !== this.lastAnnouncement) {
        this.lastAnnouncement = sentence;
        this.status.textContent = sentence;
      }
    }, 900);
  }

  private onResize(width: number): void {
    const narrow = width > 0 && width < NARROW_BELOW_PX;
    if (narrow !== this.narrow && this.good) {
      this.narrow = narrow;
      for (const view of this.views) view.update(this.good.estimate, this.good.single);
    }
  }

  private addView(view: SectionView): void {
    for (const each of [view, ...(view.parts ?? [])]) {
      this.views.push(each);
      this.nearViewport.observe(each.element);
    }
  }

  private add<T extends Control>(control: T): T {
    this.controls.push(control);
    return control;
  }

  // ── Page ─────────────────────────────────────────────────────────────────────────────────

  private build(): void {
    const memory = this.sections.has('memory');
    const time = this.sections.has('time');
    const figures = memory || time;
    const numberedSections: NumberedSection[] = [
      ...(memory ? ['memory', 'activations', 'step', 'sharding'] as const : []),
      ...(time ? ['time'] as const : []),
      ...(memory ? ['config'] as const : []),
    ];
    const { t, units } = this;
    const context: SectionContext = {
      language: this.words.language,
      t,
      units,
      parts: partLabels(t),
      range: (options) => this.add(rangeControl({
        parse: (text) => units.readField(options.path, text),
        fieldLabel: t('controls.exact_value', '{label}, exact value', { label: options.label }),
        ...options,
      }, this.onValue)),
      headingTag: (depth) => this.headingTag(depth),
      numbered: (section, title) => t('page.numbered', '{number}. {title}', { number: units.formatInteger(numberedSections.indexOf(section) + 1), title }),
      add: (control) => this.add(control),
      onValue: this.onValue,
      resolved: () => this.resolved,
      // A button's jump (a story, "try ZeRO-3"): every section shows it at once, as a link does.
      change: (next) => {
        this.overrides = next(this.overrides);
        this.commit({ announce: true, writeHash: true });
      },
      narrow: () => this.narrow,
      stepTimeline: () => this.stepTimeline(),
      playhead: () => this.stepPlayhead,
      setPlayhead: (index) => {
        if (index === this.stepPlayhead) return;
        this.stepPlayhead = index;
        this.scheduleHashWrite();
      },
      onPlayheadFromLink: (listener) => { this.playheadListener = listener; },
    };
    // The model picker serves the figures; a quiz alone has none to drive.
    const model = figures ? modelSection(context, this.engine, [this.notes, this.generalErrors]) : null;
    if (model) {
      this.presetSelect = model.presetSelect;
      this.addView(model);
    }
    // The first figure on screen is built now; the others when they near the viewport (or the
    // browser is idle), so the first paint waits for nothing off screen.
    const first = memory ? memorySection(context, this.estimateOf({}).training.accounting_choices ?? []) : time ? timeSection(context, this.engine) : null;
    if (first) this.addView(first);
    first?.element.setAttribute('data-ts-section', memory ? 'memory' : 'time');
    const later: Array<[string, () => SectionView | HTMLElement]> = [];
    if (memory) later.push(['activations', () => activationSection(context)], ['step', () => stepSection(context)], ['sharding', () => shardingSection(context)]);
    if (time && memory) later.push(['time', () => timeSection(context, this.engine)]);
    if (memory) later.push(['config', () => configSection(context, this.engine.module, (architecture, name) => this.useArchitecture(architecture, name))]);
    const header = this.options.header !== false;
    const unitsNote = figures
      ? h('p', { className: 'ts-units' }, t('page.units', 'Units: memory in decimal gigabytes and terabytes (1 GB = 10⁹ bytes, 1 TB = 10¹² bytes); compute in FLOPs (floating-point operations).'))
      : null;
    this.root.classList.toggle('ts-headerless', !header);
    replace(this.root,
      header ? h('header', { className: 'ts-header' },
        h('p', { className: 'ts-kicker' }, t('page.kicker', 'Interactive · trainscope')),
        h(this.headingTag(0), { className: 'ts-title' }, t('page.title', 'Why training needs far more hardware than running a model')),
        h('p', { className: 'ts-lede' },
          t('page.lede', 'A model that answers questions fits on a GPU or two; training the same model took thousands. '),
          memory && time ? t('page.lede.both', 'Move the real inputs below and watch where the memory and the time go. Every figure is computed by the trainscope engine, running in this page as WebAssembly.')
            : memory ? t('page.lede.memory', 'Move the real inputs below and watch where the memory goes. Every figure is computed by the trainscope engine, running in this page as WebAssembly.')
              : time ? t('page.lede.time', 'Move the real inputs below and watch where the time goes. Every figure is computed by the trainscope engine, running in this page as WebAssembly.')
                : t('page.lede.quiz', 'Check what you know below: the trainscope engine, running in this page as WebAssembly, works out every answer.')),
        unitsNote) : null,
      this.notice,
      model?.element,
      first?.element,
      later.map(([name, build]) => this.placeholder(name, build)),
      this.sections.has('quiz') ? this.quizSection() : null,
      // The caveat belongs to the figures; without a header, the units note joins it, below them.
      figures ? h('footer', { className: 'ts-footer' },
        header ? null : unitsNote,
        h('p', null, t('page.footer.estimates', 'Estimates, not measurements: real runs add communication buffers, fragmentation and framework overheads. '),
          memory ? t('page.footer.illustrative', 'Activation figures are illustrative. ') : '',
          this.syncHash ? t('page.footer.link', 'The scenario is in this page’s address, so a link shares exactly what you see.') : '')) : null,
      this.status);
  }

  /** A stand-in for an off-screen section, replaced by the section when it nears the viewport. */
  private placeholder(name: string, build: () => SectionView | HTMLElement): HTMLElement {
    const slot = h('div', { className: 'ts-section ts-section-pending', 'aria-busy': 'true', 'data-ts-section': name });
    let done = false;
    const run = () => {
      if (done) return;
      done = true;
      cancel();
      this.buildNow.delete(name);
      const built = build();
      const view = built instanceof HTMLElement ? null : built;
      const element = view ? view.element : built as HTMLElement;
      element.setAttribute('data-ts-section', name);
      slot.replaceWith(element);
      if (!view) return;
      this.addView(view);
      if (this.good) for (const each of [view, ...(view.parts ?? [])]) each.update(this.good.estimate, this.good.single);
      this.syncControls();
    };
    const cancel = whenNear(slot, run);
    this.cancels.push(cancel);
    this.buildNow.set(name, run);
    return slot;
  }

  /** The step timeline of the scenario on screen; asked only by the step section, once it is built. */
  private stepTimeline(): StepTimeline {
    const key = JSON.stringify(this.overrides);
    return this.recentTimelines.get(key, () => readStepTimeline(this.engine.module, key, this.t));
  }

  /** A model read from a config.json: the engine's verdict, and the model on screen if it takes it. */
  private useArchitecture(architecture: NonNullable<PartialScenario['model']>['architecture'], name: string): { errors: FieldError[]; params: number } {
    const previous = this.overrides;
    this.setModel({ architecture, name }, false);
    let candidate = this.overrides;
    let check = this.estimateOf(candidate);
    if (check.errors.length > 0 && check.errors.every((error) => error.field === 'model.name')) {
      // A name the engine will not carry in a link (a control character) costs only the name.
      this.setModel({ architecture }, false);
      candidate = this.overrides;
      check = this.estimateOf(candidate);
    }
    this.overrides = previous;
    if (check.errors.length > 0) return { errors: check.errors, params: 0 };
    this.overrides = candidate;
    this.commit({ announce: true, writeHash: true });
    return { errors: [], params: check.params };
  }

  /** h1…h6 for a heading `depth` levels below the widget's title; without the title, the sections take its level. */
  private headingTag(depth: number): HeadingTag {
    const top = Math.min(4, Math.max(1, Math.round(this.options.headingLevel ?? 1)));
    const below = this.options.header === false ? Math.max(0, depth - 1) : depth;
    return `h${Math.min(6, top + below)}` as HeadingTag;
  }

  /** "Check your understanding": graded by the engine; "show me" loads an item's scenario above. */
  private quizSection(): HTMLElement {
    // A plain box: the quiz brings its own labelled region. Preparing the bank validates every
    // item and asks the engine for each, so it waits until the quiz nears the viewport or the
    // browser is idle: the figures above paint first.
    const section = h('div', { className: 'ts-section ts-quiz', 'data-ts-section': 'quiz' });
    this.cancelQuiz = whenNear(section, () => {
      this.cancelQuiz = null;
      this.quiz = mountQuiz(section, {
        // The quiz speaks the widget's language: its words, the engine's (through this widget's
        // view of the module) and the built-in bank's translations from the language pack.
        t: this.t,
        language: this.words.language,
        bankTranslations: (this.words.pack?.bank ?? undefined) as BankTranslations | undefined,
        authorBank: this.options.quizBank,
        engine: this.engine.module,
        bank: this.options.quizBank?.bank ?? defaultBank,
        bankName: this.options.quizBank?.name,
        bankProblem: this.options.quizBank?.problem ?? undefined,
        // "Show me in the simulation" only where a simulation is shown.
        onShowInSimulation: this.sections.has('memory') || this.sections.has('time')
          ? (scenario, target) => this.showInSimulation(scenario as PartialScenario, target)
          : undefined,
        storage: this.options.quizStorage,
        passMark: this.options.passMark,
        instanceKey: this.options.instanceKey,
        headingLevel: Number(this.headingTag(1).slice(1)),
      });
      // Every answer and the completion also leave as xAPI statements, for a host with an LRS.
      if (this.options.xapi) this.cancels.push(this.options.xapi(section, { activity: this.options.xapiActivity }));
      section.setAttribute('data-ts-quiz-ready', 'true');
    });
    return section;
  }

  /** Loads a question's scenario and lands on the figure that answers it (web/src/showme.ts). */
  private showInSimulation(scenario: PartialScenario, target: ShowMeTarget): void {
    this.overrides = clone(scenario);
    this.commit({ announce: true, writeHash: true });
    // Every pending section is built first: one built while the view scrolls past would move the figure.
    for (const run of [...this.buildNow.values()]) run();
    const section = target.section ? this.root.querySelector<HTMLElement>(`.ts-section[data-ts-section="${target.section}"]`) : null;
    if (target.moment) this.openStepAt(target.moment);
    landOnFigure(this.t, this.root, section, target, this.root.querySelector<HTMLElement>('.ts-model'));
  }

  /** Moves the step's playhead to `moment`: the engine's peak, or the first event of a phase on a layer. */
  private openStepAt(moment: string): void {
    const timeline = this.stepTimeline();
    if (!timeline.events) return;
    // A phase's first event on a transformer layer (the embedding's gather comes first, but a
    // question about layers means a layer), else its first event at all.
    const first = (onLayer: boolean) => timeline.events!.findIndex((event) => event.phase === moment && (!onLayer || event.block === 'layer'));
    const index = moment === 'peak' ? timeline.peak_event ?? -1 : first(true) >= 0 ? first(true) : first(false);
    if (index < 0) return;
    this.stepPlayhead = index;
    this.playheadListener?.(index);
  }
}

function describeErrors(t: Translate, errors: FieldError[]): string {
  const shown = errors.slice(0, 3).map((error) => `${error.field}: ${error.message}`).join('; ');
  return errors.length > 3 ? t('page.errors_more', '{shown}; and more', { shown }) : shown;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
