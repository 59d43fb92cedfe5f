// The widget: builds the page inside a given root, keeps one Scenario, asks the engine once per
// input for everything the page draws (engine/view.ts: the estimate, the one-copy reference and,
// when the step section is drawn, the step timeline) and pushes that view to every section.
// Nothing here computes a figure: numbers on screen are engine values. The widget owns the state
// (the learner's overrides, the view on screen, the URL hash); each section (web/src/sections/) is
// built once and updated in place from the view it is given, and calls nothing back.
//
//   controls ──▶ Scenario ──▶ engine.view ──▶ view (estimate, reference, step) ──▶ sections
//      ▲             │ URL hash
//      └─────────────┘

import { rangeControl, type Control } from '../controls/controls';
import { fieldScale } from '../controls/sliders';
import { replace, setClass } from '../dom/dom';
import type { Engine } from '../engine/engine';
import { clone, getField, mergeScenario, scenarioChanges } from '../engine/scenario';
import { unitsFor, type Units } from '../engine/units';
import { bothParts, holdsParts, NO_PARTS, type EngineView, type ViewParts } from '../engine/view';
import type { Estimate, FieldError, PartialScenario, Scenario, StepTimeline, Story, ViewText } from '../engine/types';
import { partLabels } from '../figures/parts';
import type { Translate, WidgetLanguage } from '../i18n/i18n';
import type { ShowMeTarget } from '../quiz/quiz';
import { activationSection } from '../sections/activations';
import { computeTimePart } from '../sections/lesson/compute-time';
import { runVsTrainPart } from '../sections/lesson/run-vs-train';
import { shardingCheckpointingPart } from '../sections/lesson/sharding-checkpointing';
import { trainingExtrasPart } from '../sections/lesson/training-extras';
import { fitSection } from '../sections/fit/section';
import { configSection } from '../sections/config';
import type { HeadingTag, NumberedSection, PageView, SectionContext, SectionView } from '../sections/context';
import { precisionSection } from '../sections/memory';
import { FROM_CONFIG, MODEL_PARAMS, MODEL_PRESET, modelSection } from '../sections/model';
import { shardingSection } from '../sections/sharding';
import { shownControls } from '../sections/shown-controls';
import { stepSection } from '../sections/step/section';
import { timeSection } from '../sections/time';
import { AddressWriter } from './address';
import { Announcer } from './announcer';
import { decodeHash, encodeHash } from './hash';
import { capitalise, describeErrors, Notices } from './notices';
import { type MountOptions, type TrainscopeHandle } from './options';
import { deeperDisclosure, deeperParts, DEEPER_SECTION_NAMES, landOnPart, type DeeperDisclosure } from './deeper';
import { leafPaths, partsForFields, planParts, type DeeperPart, type LessonPart, type PartsPlan } from './parts-plan';
import { pageFooter, pageHeader } from './page';
import { quizSection, type QuizSection } from './quiz-section';
import { RecentResults } from './recent';
import { modelChoice, withModel, withValue } from './scenario-rules';
import { SectionViews } from './section-views';
import { clearShowMe, landOnFigure } from './showme';

/** How long "Back to question" waits for the browser to leave the show-me history entry. */
const HISTORY_BACK_WAIT_MS = 500;

/** The lesson parts that may draw a question's figure, by the section the bank names (docs/quiz.md, "show"). */
const LESSON_PARTS_OF_SECTION: Readonly<Record<string, readonly LessonPart[]>> = {
  memory: ['run-vs-train', 'training-extras'],
  sharding: ['sharding-checkpointing'],
  activations: ['sharding-checkpointing'],
  time: ['compute-time'],
};

/** The deeper part that holds the rest of a section the bank names. */
const DEEPER_PART_OF_SECTION: Readonly<Record<string, DeeperPart>> = {
  memory: 'precision',
  sharding: 'layouts',
  activations: 'activations',
  step: 'step',
  time: 'time-over-gpus',
  fit: 'fit',
  config: 'your-model',
};

/** Narrower than a phone in landscape: fewer axis ticks and GPU chips. */
const NARROW_BELOW_PX = 560;

/** What is on screen: the engine's last good view, and the overrides it is for. */
interface Shown {
  overrides: PartialScenario;
  estimate: Estimate;
  reference: Estimate;
  referenceKey: string;
  text: ViewText;
  step: StepTimeline | null;
  /** The parts the estimate and step carry (engine/view.ts): asked again, with more, when a section needs more. */
  parts: ViewParts;
}

export class Widget {
  private readonly t: Translate;
  /** The widget's writers of quantities, in its language. */
  private readonly units: Units;
  private readonly syncHash: boolean;
  /** The lesson parts, the deeper parts and the quiz this widget shows (widget/parts-plan.ts). */
  private readonly plan: PartsPlan;
  /** The parts drawn so far: the lesson's, the deeper ones turned on, and those a learner opened. */
  private readonly drawnParts: Set<string>;
  /** The fields the drawn parts offer controls for: the engine's notes name no other. */
  private shownControls: string;
  /** The deeper parts waiting behind their disclosures. */
  private readonly deeperDisclosures = new Map<DeeperPart, DeeperDisclosure>();
  private quiz: QuizSection | null = null;
  private readonly defaults: Scenario;
  /** What the learner (or the link) set: the engine fills in everything else. This is the state. */
  private overrides: PartialScenario;
  /** The whole scenario as the engine resolved it for the figures on screen. */
  private resolved: Scenario;
  private shown: Shown | null = null;
  private readonly controls: Control[] = [];
  private readonly sectionViews: SectionViews;
  private readonly notices: Notices;
  private readonly announcer = new Announcer();
  private readonly address: AddressWriter;
  private presetSelect: HTMLSelectElement | null = null;
  private readonly onHashChange = () => this.loadFromHash();
  /** Leaving or reloading the page writes a pending hash first, so the address carries the last change. */
  private readonly onPageHide = () => {
    if (!this.address.pending) return;
    this.address.cancel();
    this.address.write();
  };
  /** The step section's playhead (an event index) while the learner or a link placed it; in the hash. */
  private stepPlayhead: number | null = null;
  private playheadListener: ((index: number | null) => void) | null = null;
  /** While "show me" shows a question's scenario: the learner's own, to go back to. */
  private learnerBeforeShowMe: { overrides: PartialScenario; playhead: number | null } | null = null;
  /**
   * The engine's recent views: starting up asks for the same scenario more than once, and a
   * learner comparing settings asks the same ones again.
   */
  private readonly recentViews = new RecentResults<EngineView>(8);
  private readonly resizeObserver: ResizeObserver | null;
  private narrow = false;

  constructor(
    private readonly engine: Engine,
    private readonly root: HTMLElement,
    private readonly options: MountOptions,
    private readonly words: WidgetLanguage,
  ) {
    this.t = words.t;
    this.units = unitsFor(engine);
    this.syncHash = options.syncHash !== false;
    this.plan = planParts(options.sections);
    this.drawnParts = new Set<string>([...this.plan.lesson, ...this.plan.deeper.filter(({ open }) => open).map(({ part }) => part)]);
    this.shownControls = shownControls(this.drawnParts);
    this.defaults = clone(engine.defaultScenario);
    this.overrides = clone(options.scenario ?? {});
    this.resolved = clone(this.defaults);
    this.notices = new Notices(this.t, options.languageProblem ? [options.languageProblem] : []);
    this.address = new AddressWriter(() => encodeHash(this.overrides, this.stepPlayhead));
    this.sectionViews = new SectionViews(
      (parts) => this.latest(parts),
      () => this.syncControls(),
    );
    this.build();
    // The width arrives with the observer's first report, after the first layout: reading it here
    // would force a layout of the whole page before anything is drawn. Until then the page is
    // drawn for a wide screen; a narrow one is redrawn before the first paint.
    this.resizeObserver =
      typeof ResizeObserver === 'function'
        ? new ResizeObserver((entries) => this.onResize(entries[entries.length - 1]?.contentRect.width ?? 0))
        : null;
    this.resizeObserver?.observe(this.root);
    this.start();
  }

  /** The first scenario: the link's, else the host's, else the engine's defaults; each refused one says why. */
  private start(): void {
    const { t } = this;
    let start = this.overrides;
    if (this.syncHash) {
      window.addEventListener('hashchange', this.onHashChange);
      window.addEventListener('pagehide', this.onPageHide);
      start = this.scenarioFromHash() ?? start;
    }
    const first = this.viewOf(start, NO_PARTS);
    if (!first.ok && start !== this.overrides) {
      this.notices.show(
        t('page.link_problems', 'This link’s scenario has problems ({problems}), so the page shows the default scenario instead.', {
          problems: describeErrors(t, first.errors),
        }),
      );
      start = this.overrides;
    }
    this.overrides = start;
    this.commit({ announce: false, writeHash: false });
    if (!this.shown) {
      // Even the starting scenario was refused (e.g. embed options with a typo): use the engine's defaults.
      const refused = this.viewOf(this.overrides, NO_PARTS);
      this.notices.show(
        t('page.start_problems', 'The starting scenario has problems ({problems}); showing the default scenario instead.', {
          problems: describeErrors(t, refused.ok ? [] : refused.errors),
        }),
      );
      this.overrides = {};
      this.commit({ announce: false, writeHash: false });
    }
    // A link (or the host) that sets what only a deeper part shows opens that part.
    this.openDeeperFor(this.overrides);
    // A refused starting scenario's notice (above) says more than the settings' problems: keep it.
    if (this.notices.noticeHidden) this.notices.setProblems(this.options.problems ?? []);
  }

  /** The engine's view of a scenario, remembered for the last few asked. */
  private viewOf(overrides: PartialScenario, parts: ViewParts): EngineView {
    const knownReference = this.shown?.referenceKey ?? '';
    const shownControls = this.shownControls;
    const { step, communicationCurve, communicationSchedule } = parts;
    const key = `${knownReference}|${Number(step)}${Number(communicationCurve)}${Number(communicationSchedule)}|${JSON.stringify(overrides)}`;
    return this.recentViews.get(key, () => this.engine.view(overrides, { knownReference, ...parts, shownControls }, this.t));
  }

  /** What the sections draw, from what is on screen; with the parts asked for (asked now from the engine if not held). */
  private latest(parts: ViewParts): PageView | null {
    const { shown } = this;
    if (!shown) return null;
    if (!holdsParts(shown.parts, parts)) {
      // The same scenario with more parts: every figure it shares with the one on screen is the same.
      const answer = this.viewOf(shown.overrides, bothParts(shown.parts, parts));
      if (answer.ok) {
        shown.estimate = answer.estimate;
        shown.step = answer.step;
        shown.parts = answer.parts;
      }
    }
    return {
      estimate: shown.estimate,
      reference: shown.reference,
      scenario: this.resolved,
      text: shown.text,
      step: shown.step,
      narrow: this.narrow,
    };
  }

  handle(): TrainscopeHandle {
    return {
      engine: this.engine,
      element: this.root,
      language: this.words.language,
      t: this.t,
      scenario: () => clone(this.resolved),
      overrides: () => clone(this.overrides),
      estimate: () => clone(this.shown!.estimate),
      setScenario: (partial) => {
        this.overrides = clone(partial);
        this.commit({ announce: true, writeHash: true });
      },
      setProblems: (problems) => this.notices.setProblems(problems),
      destroy: () => {
        this.quiz?.destroy();
        this.sectionViews.destroy();
        window.removeEventListener('hashchange', this.onHashChange);
        window.removeEventListener('pagehide', this.onPageHide);
        this.resizeObserver?.disconnect();
        this.announcer.cancel();
        this.address.cancel();
        this.root.remove();
      },
    };
  }

  // The address.

  private scenarioFromHash(): PartialScenario | null {
    const decoded = decodeHash(window.location.hash, this.engine, this.t);
    if (decoded.kind === 'empty') this.stepPlayhead = decoded.playhead ?? null;
    if (decoded.kind === 'empty' || decoded.kind === 'anchor') return null;
    if (decoded.kind === 'invalid') {
      this.notices.show(
        this.t('page.link_invalid', '{problem}, so the page shows the default scenario instead.', { problem: capitalise(decoded.message) }),
      );
      return null;
    }
    this.notices.hide();
    this.stepPlayhead = decoded.playhead ?? null;
    return decoded.scenario;
  }

  private loadFromHash(): void {
    // The address changed under us (back, forward, an edited link): it wins over a pending write,
    // and ends a "show me" (the browser's Back from it brings the learner's scenario, below).
    this.address.cancel();
    if (this.learnerBeforeShowMe) {
      this.learnerBeforeShowMe = null;
      clearShowMe(this.root);
    }
    if (window.location.hash === encodeHash(this.overrides, this.stepPlayhead)) return;
    if (decodeHash(window.location.hash).kind === 'anchor') return;
    const playheadBefore = this.stepPlayhead;
    const fromHash = this.scenarioFromHash() ?? {};
    const check = this.viewOf(fromHash, NO_PARTS);
    if (!check.ok) {
      this.notices.show(
        this.t('page.link_problems', 'This link’s scenario has problems ({problems}), so the page shows the default scenario instead.', {
          problems: describeErrors(this.t, check.errors),
        }),
      );
      this.overrides = {};
    } else {
      this.overrides = fromHash;
    }
    this.commit({ announce: true, writeHash: false });
    this.openDeeperFor(this.overrides);
    // After the redraw: the link's event index counts the events of the link's scenario.
    if (this.stepPlayhead !== playheadBefore) this.playheadListener?.(this.stepPlayhead);
  }

  // An input.

  /** A learner changed one field. */
  private readonly onValue = (path: string, value: unknown): void => {
    if (!this.shown) return;
    const next = withValue(this.overrides, this.resolved, this.shown.estimate, path, value);
    if (next === null) return;
    this.overrides = next;
    this.commit({ announce: true, writeHash: true, fromInput: true });
  };

  /**
   * Asks the engine once and pushes its view. `fromInput`: a learner moving a control, where the
   * step's cost is what they feel, so sections far off screen may catch up when idle. Everything
   * else (a link, a preset, "show me") updates every section at once.
   */
  private commit(options: { announce: boolean; writeHash: boolean; fromInput?: boolean }): void {
    const offscreenMayWait = options.fromInput === true;
    const answer = this.viewOf(this.overrides, this.sectionViews.wants(offscreenMayWait));
    for (const control of this.controls) control.setError(null);
    if (!answer.ok) {
      this.showFieldErrors(answer.errors);
      setClass(this.root, 'ts-stale', true);
    } else {
      this.notices.clearGeneralErrors();
      // Only a change: classList.remove writes the class attribute even when the class is absent.
      setClass(this.root, 'ts-stale', false);
      if (answer.estimate.scenario) this.resolved = answer.estimate.scenario;
      // Dragging a parallelism control leaves one whole copy as it was: the engine says so, and its figures are skipped.
      const referenceUnchanged = answer.reference === null && this.shown !== null;
      const reference = answer.reference ?? this.shown?.reference ?? answer.estimate;
      this.shown = {
        overrides: this.overrides,
        estimate: answer.estimate,
        reference,
        referenceKey: answer.referenceKey,
        text: answer.text,
        step: answer.step,
        parts: answer.parts,
      };
      this.sectionViews.update(this.latest(NO_PARTS)!, referenceUnchanged, offscreenMayWait);
      this.updatePresetChoice();
      this.notices.renderNotes(answer.estimate.notes);
      if (options.writeHash && this.syncHash) this.address.schedule();
      if (options.announce) this.announcer.schedule(() => this.statusSentence());
    }
    this.syncControls();
  }

  private syncControls(): void {
    // While the engine refuses the scenario, controls show what the learner set over the last good one.
    const shown = mergeScenario(this.resolved, this.overrides);
    const estimate = this.shown?.estimate;
    for (const control of this.controls) {
      if (control.path === MODEL_PRESET) control.sync(modelChoice(this.overrides, this.defaults));
      else if (control.path === MODEL_PARAMS) control.sync(shown.model.params ?? estimate?.params);
      // A catalogue GPU's memory and peak are not scenario fields: show the datasheet values.
      else if (control.path === 'hardware.memory_bytes') control.sync(getField(shown, control.path) ?? estimate?.gpu.memory_bytes);
      else if (control.path === 'hardware.peak_flops') control.sync(getField(shown, control.path) ?? estimate?.gpu.peak_flops);
      else control.sync(getField(shown, control.path));
    }
  }

  private showFieldErrors(errors: readonly FieldError[]): void {
    const unplaced: FieldError[] = [];
    for (const error of errors) {
      // Every control of the field says it: the lesson path and a deeper part may both offer one.
      const path = error.field === 'model' ? MODEL_PARAMS : error.field;
      const controls = this.controls.filter((c) => c.path === path);
      for (const control of controls)
        control.setError(
          this.t('page.field_error', '{message}. The figures still show the last valid scenario.', { message: error.message }),
        );
      if (controls.length === 0) unplaced.push(error);
    }
    this.notices.showGeneralErrors(unplaced);
  }

  /** The preset list's "your config" entry names the model read from a config while it is on screen. */
  private updatePresetChoice(): void {
    const option = this.presetSelect && [...this.presetSelect.options].find((o) => o.value === FROM_CONFIG);
    if (!option) return;
    const fromConfig = modelChoice(this.overrides, this.defaults) === FROM_CONFIG;
    if (option.disabled !== !fromConfig) option.disabled = !fromConfig;
    // The name is part of the scenario (model.name), so a shared link names the model too.
    const text = fromConfig
      ? this.t('page.your_model', 'Your model: {name}', {
          name: this.overrides.model?.name ?? this.t('page.your_model_unnamed', 'your model'),
        })
      : this.t('model.from_config', 'Your config.json (paste below)');
    if (option.textContent !== text) option.textContent = text;
  }

  /** The status line's summary of what is on screen. */
  private statusSentence(): string {
    const { estimate } = this.shown!;
    const training = estimate.training;
    const { formatBytes, formatDuration } = this.units;
    const values = {
      per_gpu: formatBytes(training.per_gpu.total),
      memory: formatBytes(estimate.gpu.memory_bytes),
      time: formatDuration(estimate.compute.seconds),
      gpus: this.units.formatGpus(this.resolved.parallel.gpus),
    };
    return training.fits
      ? this.t('page.status.fits_on', 'Training fits: {per_gpu} per GPU of {memory}. Training time {time} on {gpus}.', values)
      : this.t('page.status.no_fit_on', 'Training does not fit: {per_gpu} per GPU of {memory}. Training time {time} on {gpus}.', values);
  }

  private onResize(width: number): void {
    const narrow = width > 0 && width < NARROW_BELOW_PX;
    if (narrow === this.narrow || !this.shown) return;
    this.narrow = narrow;
    this.sectionViews.updateAll();
  }

  // The page.

  private add<T extends Control>(control: T): T {
    this.controls.push(control);
    return control;
  }

  /** What every section is given when it is built: words, writers, controls, and the playhead's link. */
  private sectionContext(numberedSections: readonly NumberedSection[]): SectionContext {
    const { t, units } = this;
    return {
      language: this.words.language,
      t,
      units,
      parts: partLabels(t),
      range: (options) =>
        this.add(
          rangeControl(
            {
              parse: (text) => units.readField(options.path, text),
              scale: fieldScale(units, options.path),
              fieldLabel: t('controls.exact_value', '{label}, exact value', { label: options.label }),
              ...options,
            },
            this.onValue,
          ),
        ),
      headingTag: (depth) => this.headingTag(depth),
      // Only the lesson's parts carry a number: the deeper parts are tools, not steps of the lesson.
      numbered: (section, title) =>
        numberedSections.includes(section)
          ? t('page.numbered', '{number}. {title}', { number: units.formatInteger(numberedSections.indexOf(section) + 1), title })
          : title,
      add: (control) => this.add(control),
      choices: (path) => this.engine.choices[path] ?? [],
      onValue: this.onValue,
      load: (scenario) => this.loadScenario(scenario),
      story: (story) => this.tellStory(story),
      hasDeeper: (part) => this.plan.deeper.some((shown) => shown.part === part),
      openDeeper: (part) => this.openDeeper(part),
      // A button's jump ("try ZeRO-3"): every section shows it at once, as a link does.
      change: (next) => {
        this.overrides = next(this.overrides);
        this.commit({ announce: true, writeHash: true });
      },
      playhead: () => this.stepPlayhead,
      setPlayhead: (index) => {
        if (index === this.stepPlayhead) return;
        this.stepPlayhead = index;
        if (this.syncHash) this.address.schedule();
      },
      onPlayheadFromLink: (listener) => {
        this.playheadListener = listener;
      },
    };
  }

  /** A deeper part's section, built when the part is first opened (or shown open). */
  private deeperSection(part: DeeperPart, context: SectionContext): SectionView | HTMLElement {
    const lessonShows = (lessonPart: LessonPart) => this.plan.lesson.includes(lessonPart);
    switch (part) {
      case 'layouts':
        return shardingSection(context, this.engine.presets, lessonShows('sharding-checkpointing'));
      case 'step':
        return stepSection(context);
      case 'activations':
        return activationSection(context);
      case 'time-over-gpus':
        return timeSection(context, this.engine, lessonShows('compute-time'));
      case 'fit':
        return fitSection(context, this.engine);
      case 'precision':
        return precisionSection(context, this.accountingChoices(), this.engine.validationSummary);
      case 'your-model':
        return configSection(
          context,
          (text) => this.engine.parseHfConfig(text),
          (architecture, name) => this.useArchitecture(architecture, name),
        );
    }
  }

  /** The engine's counting conventions, as any estimate lists them (the precision part's labels). */
  private accountingChoices() {
    const defaults = this.viewOf({}, NO_PARTS);
    return defaults.ok ? (defaults.estimate.training.accounting_choices ?? []) : [];
  }

  /** A lesson part's section. `below`: what sits under its controls (the notes, the scenario's problems). */
  private lessonSection(part: LessonPart, context: SectionContext, below: HTMLElement[]): SectionView {
    switch (part) {
      case 'run-vs-train': {
        const view = runVsTrainPart(context, this.engine, below);
        this.presetSelect = view.presetSelect;
        return view;
      }
      case 'training-extras':
        return trainingExtrasPart(context);
      case 'sharding-checkpointing':
        return shardingCheckpointingPart(context, below);
      case 'compute-time':
        return computeTimePart(context);
    }
  }

  /**
   * The lesson path: its first part now (the first figure), the others when they near the viewport
   * or the browser is idle. The model picker sits under the first part's figure; without that part,
   * above the others. The engine's notes go to the part whose controls they name (the sharding and
   * checkpointing part), else under the picker.
   */
  private buildLesson(context: SectionContext): { top: HTMLElement | null; parts: HTMLElement[] } {
    const { lesson } = this.plan;
    const notesInFitPart = lesson.includes('sharding-checkpointing');
    const underPicker = [this.notices.generalErrors, ...(notesInFitPart ? [] : [this.notices.notes])];
    const figures = lesson.length > 0 || this.plan.deeper.length > 0;
    let top: HTMLElement | null = null;
    if (figures && lesson[0] !== 'run-vs-train') {
      const model = modelSection(context, this.engine, underPicker);
      this.presetSelect = model.presetSelect;
      this.sectionViews.add(model);
      top = model.element;
    }
    const parts = lesson.map((part, index) => {
      const below = part === 'run-vs-train' ? underPicker : part === 'sharding-checkpointing' ? [this.notices.notes] : [];
      if (index > 0) return this.sectionViews.placeholder(part, () => this.lessonSection(part, context, below));
      const view = this.lessonSection(part, context, below);
      view.element.setAttribute('data-ts-section', part);
      this.sectionViews.add(view);
      return view.element;
    });
    return { top, parts };
  }

  /**
   * The deeper parts: each one the author turned on is drawn as a section (when it nears the
   * viewport); the others wait behind a disclosure, built the first time it is opened.
   */
  private buildDeeper(context: SectionContext): HTMLElement | null {
    if (this.plan.deeper.length === 0) return null;
    const { t } = this;
    const items = this.plan.deeper.map(({ part, open }) => {
      const build = () => this.deeperSection(part, context);
      const name = DEEPER_SECTION_NAMES[part];
      if (open) {
        const slot = this.sectionViews.placeholder(name, build);
        slot.id = `ts-deeper-${part}`;
        return slot;
      }
      const disclosure = deeperDisclosure(t, part, (body) => {
        body.append(this.sectionViews.placeholder(name, build, { whenNear: false }));
        this.sectionViews.buildNamed(name);
        this.partDrawn(part);
      });
      this.deeperDisclosures.set(part, disclosure);
      return disclosure.element;
    });
    return deeperParts(
      t,
      this.headingTag(1),
      items,
      this.plan.deeper.some(({ open }) => !open),
    );
  }

  private build(): void {
    const context = this.sectionContext(this.plan.lesson);
    const { top, parts } = this.buildLesson(context);
    const memory = this.plan.lesson.some((part) => part !== 'compute-time') || this.plan.deeper.length > 0;
    const time = this.plan.lesson.includes('compute-time');
    const header = { memory, time, header: this.options.header !== false, syncHash: this.syncHash, titleTag: this.headingTag(0) };
    if (this.plan.quiz) {
      const showMe =
        memory || time ? (scenario: object, target: ShowMeTarget) => this.showInSimulation(scenario as PartialScenario, target) : null;
      this.quiz = quizSection(this.engine, this.words, this.options, Number(this.headingTag(1).slice(1)), showMe);
    }
    const deeper = this.buildDeeper(context);
    this.root.classList.toggle('ts-headerless', !header.header);
    replace(
      this.root,
      pageHeader(this.t, header),
      this.notices.notice,
      top,
      parts,
      this.quiz?.element,
      deeper,
      pageFooter(this.t, header),
      this.announcer.element,
    );
  }

  /** A deeper part was drawn: the engine's notes may now name its controls. */
  private partDrawn(part: DeeperPart): void {
    this.drawnParts.add(part);
    const shown = shownControls(this.drawnParts);
    if (shown === this.shownControls) return;
    this.shownControls = shown;
    if (this.shown) this.commit({ announce: false, writeHash: false });
  }

  /** Opens the deeper parts whose controls set the fields of `overrides` (and the step's, with a playhead). */
  private openDeeperFor(overrides: PartialScenario): void {
    for (const part of partsForFields(leafPaths(overrides), this.stepPlayhead !== null)) this.deeperDisclosures.get(part)?.open();
  }

  /** Opens a deeper part (building it), brings it into view and moves focus to its heading. */
  private openDeeper(part: DeeperPart): void {
    const disclosure = this.deeperDisclosures.get(part);
    disclosure?.open();
    const target = disclosure?.element ?? this.root.querySelector<HTMLElement>(`#ts-deeper-${part}`);
    if (!target) return;
    this.sectionViews.buildNamed(DEEPER_SECTION_NAMES[part]);
    landOnPart(target);
  }

  /** A story: its scenario, then the lesson part that tells it, scrolled to and marked. */
  private tellStory(story: Story): void {
    this.overrides = clone(story.scenario);
    this.commit({ announce: true, writeHash: true });
    this.sectionViews.buildNamed(story.lands_on);
    const part = this.root.querySelector<HTMLElement>(`.ts-section[data-ts-section="${story.lands_on}"]`);
    if (part) landOnPart(part);
  }

  /**
   * A whole scenario the engine wrote (a layout or a change "What fits" found), kept as its changes
   * from the defaults so the link stays short. The scenario before it is written into its own
   * history entry first and the loaded one gets a new entry: the browser's Back brings it back.
   */
  private loadScenario(scenario: Scenario): void {
    const addEntry = this.syncHash && this.learnerBeforeShowMe === null;
    if (addEntry) {
      this.address.cancel();
      this.address.write();
    }
    this.overrides = scenarioChanges(this.defaults, scenario);
    this.commit({ announce: true, writeHash: !addEntry });
    if (addEntry && this.shown?.overrides === this.overrides) this.address.push();
  }

  /** A model read from a config.json: the engine's verdict, and the model on screen if it takes it. */
  private useArchitecture(
    architecture: NonNullable<PartialScenario['model']>['architecture'],
    name: string,
  ): { errors: FieldError[]; params: number } {
    let candidate = withModel(this.overrides, this.resolved, { architecture, name }, false);
    let check = this.viewOf(candidate, NO_PARTS);
    if (!check.ok && check.errors.every((error) => error.field === 'model.name')) {
      // A name the engine will not carry in a link (a control character) costs only the name.
      candidate = withModel(this.overrides, this.resolved, { architecture }, false);
      check = this.viewOf(candidate, NO_PARTS);
    }
    if (!check.ok) return { errors: check.errors, params: 0 };
    this.overrides = candidate;
    this.commit({ announce: true, writeHash: true });
    return { errors: [], params: check.estimate.params };
  }

  /** h1…h6 for a heading `depth` levels below the widget's title; without the title, the sections take its level. */
  private headingTag(depth: number): HeadingTag {
    const top = Math.min(4, Math.max(1, Math.round(this.options.headingLevel ?? 1)));
    const below = this.options.header === false ? Math.max(0, depth - 1) : depth;
    return `h${Math.min(6, top + below)}` as HeadingTag;
  }

  /**
   * Loads a question's scenario and lands on the figure that answers it (web/src/widget/showme.ts).
   * The learner's own scenario is kept: "Back to question" brings it back, and so does the
   * browser's Back (the question's scenario has a history entry of its own).
   */
  private showInSimulation(scenario: PartialScenario, target: ShowMeTarget): void {
    // A second "show me" before going back keeps the first one's return: the learner's scenario, not a question's.
    const returning = this.learnerBeforeShowMe === null;
    if (returning) this.learnerBeforeShowMe = { overrides: clone(this.overrides), playhead: this.stepPlayhead };
    const addEntry = returning && this.syncHash && !AddressWriter.onShowMeEntry();
    // The learner's scenario in its own entry now, for the browser's Back.
    if (addEntry) {
      this.address.cancel();
      this.address.write();
    }
    this.overrides = clone(scenario);
    this.commit({ announce: true, writeHash: false });
    this.sectionViews.buildAll();
    const section = this.sectionShowing(target);
    this.sectionViews.settleAll();
    if (target.moment) this.openStepAt(target.moment);
    if (addEntry) this.address.pushShowMe();
    else if (this.syncHash) this.address.write();
    const back = () => this.backFromShowMe(() => target.back());
    landOnFigure(this.t, this.root, section, { ...target, back }, this.root.querySelector<HTMLElement>('.ts-model'));
  }

  /**
   * Where a question's figure is: a lesson part that draws it, else the deeper part that holds the
   * question's section (opened and built). The bank names sections as the widget's first sections
   * were named (memory, sharding, time, …): each stands for its lesson parts and its deeper part.
   */
  private sectionShowing(target: ShowMeTarget): HTMLElement | null {
    if (!target.section) return null;
    const drawsFigure = (element: Element) => !target.figure || element.querySelector(`[data-figure="${target.figure}"]`) !== null;
    const lessonPart = [...this.root.querySelectorAll<HTMLElement>('.ts-lesson-part')].find(
      (part) => (LESSON_PARTS_OF_SECTION[target.section!] ?? []).some((name) => name === part.dataset.tsSection) && drawsFigure(part),
    );
    if (lessonPart) return lessonPart;
    const deeper = DEEPER_PART_OF_SECTION[target.section];
    if (deeper) {
      this.deeperDisclosures.get(deeper)?.open();
      this.sectionViews.buildNamed(DEEPER_SECTION_NAMES[deeper]);
    }
    const name = deeper ? DEEPER_SECTION_NAMES[deeper] : target.section;
    return this.root.querySelector<HTMLElement>(`.ts-section[data-ts-section="${name}"]`);
  }

  /**
   * The learner's own scenario again, after "show me", then `then` (back at the question). The
   * history entry "show me" added is left first, and the browser restores the scroll position of
   * the entry before it: the question is scrolled to after that (the hash handler finds the
   * learner's scenario already on screen).
   */
  private backFromShowMe(then: () => void): void {
    const before = this.learnerBeforeShowMe;
    if (before) {
      this.learnerBeforeShowMe = null;
      this.overrides = before.overrides;
      this.stepPlayhead = before.playhead;
      this.commit({ announce: true, writeHash: false });
      this.playheadListener?.(this.stepPlayhead);
    }
    if (!this.syncHash || !AddressWriter.onShowMeEntry()) return then();
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      then();
    };
    window.addEventListener('popstate', () => requestAnimationFrame(finish), { once: true });
    // A page that refuses the traversal still goes back to the question.
    setTimeout(finish, HISTORY_BACK_WAIT_MS);
    history.back();
  }

  /** Moves the step's playhead to `moment`: the engine's peak, or the first event of a phase on a layer. */
  private openStepAt(moment: string): void {
    const timeline = this.latest({ ...NO_PARTS, step: true })?.step;
    if (!timeline?.events) return;
    const events = timeline.events;
    // A phase's first event on a transformer layer (the embedding's gather comes first, but a
    // question about layers means a layer), else its first event at all.
    const first = (onLayer: boolean) => events.findIndex((event) => event.phase === moment && (!onLayer || event.block === 'layer'));
    const index = moment === 'peak' ? (timeline.peak_event ?? -1) : first(true) >= 0 ? first(true) : first(false);
    if (index < 0) return;
    this.stepPlayhead = index;
    this.playheadListener?.(index);
  }
}
