// One mounted quiz's state and the jobs every part of it shares: the engine's instance and grade
// for an item (through engine/quiz.ts), saving progress, telling the host, and announcing. The
// views (item-view.ts, feedback.ts, summary.ts) read it and call `actions`; actions.ts changes it.

import { quizCalls, type QuizCalls } from '../engine/quiz';
import { uniqueId } from '../dom/dom';
import type { Language, Translate } from '../i18n/i18n';
import { PRACTICE_PREFIX, type PreparedBank, type PreparedItem } from './bank';
import { takeawayProgress } from './practice';
import {
  changedItemIds,
  deserializeProgress,
  masteryChanged,
  itemCredit,
  mergeProgress,
  retryItem,
  score,
  serializeProgress,
  type QuizProgress,
  type QuizSet,
} from './state';
import type { GuardedStorage } from './storage';
import type { Answer, AnswerDetail, MasteryDetail, QuizEngine, QuizGrade, QuizInstance, QuizScore, ScoreDetail } from './types';
import type { QuizOptions } from './quiz';

export const SCORE_EVENT = 'trainscope-score';
/** Dispatched right before the score event of an answer or a shown solution (detail: AnswerDetail). */
export const ANSWER_EVENT = 'trainscope-answer';
/** Dispatched when a takeaway becomes mastered (detail: MasteryDetail; docs/quiz.md, "Practice"). */
export const MASTERY_EVENT = 'trainscope-mastery';

/** What the quiz knows of one item once asked: the engine's instance and the last grade. */
export interface ItemView {
  instance: QuizInstance | null;
  /** The last graded answer's result (correct or incorrect), or the solution's grade. */
  grade: QuizGrade | null;
  /** When these numbers were first drawn, or the last verdict given: an answer's latency counts from it. */
  since: number;
}

/** What the learner can do; actions.ts carries them out, the views only call them. */
export interface QuizActions {
  check(item: PreparedItem): void;
  reveal(item: PreparedItem): void;
  retry(item: PreparedItem): void;
  /** Back from the simulation: the question on screen, scrolled to, with focus on its legend. */
  backTo(id: string): void;
  show(id: string | null, focus: 'legend' | 'summary' | null): void;
  goTo(id: string): void;
  retryMissed(): void;
  /** Starts a practice run of `takeaway`; after a wrong answer, `slip` (the engine's) picks its first question. */
  practise(takeaway: string, slip: string | null, fromItemId: string | null): void;
  /** The run's next question: aimed at the last slip, else the takeaway's next kind. */
  nextPractice(): void;
  /** Leaves the practice run for the results. */
  endPractice(): void;
  /** Goes on from the set asked into the deeper questions. */
  continueFurther(): void;
  reset(): void;
  /** Draws an item again where it stands. */
  replaceItem(item: PreparedItem): HTMLLIElement;
  /** Draws the progress, the navigation and the summary again. */
  renderChrome(): void;
}

/** The elements around the questions that several jobs update (frame.ts builds them). */
export interface QuizFrame {
  root: HTMLElement;
  list: HTMLElement;
  progressText: HTMLElement;
  progressBar: HTMLElement;
  modeToggle: HTMLButtonElement;
  storageNote: HTMLElement;
  previousButton: HTMLButtonElement;
  nextButton: HTMLButtonElement;
  resultsButton: HTMLButtonElement;
  nav: HTMLElement;
  summarySection: HTMLElement;
  practiceSection: HTMLElement;
  pending: HTMLElement;
  live: HTMLElement;
}

export interface QuizSetup {
  container: HTMLElement;
  options: QuizOptions;
  engine: QuizEngine;
  t: Translate;
  language: Language;
  random: () => number;
  bank: PreparedBank;
  /** The set asked (docs/quiz.md, "Sets"): the one the score and the pass mark cover. */
  set: QuizSet;
  /** The bank has questions in both sets: the score names the set it covers. */
  labelled: boolean;
  /** The questions of the set asked, as this learner gets them. */
  graded: PreparedItem[];
  /** The deeper questions the learner may go on to after the lesson set (none for another set). */
  further: PreparedItem[];
  progress: QuizProgress;
  passMark: number | null;
  storage: GuardedStorage;
  bankName: string | undefined;
  bankProblem: string | undefined;
  headingLevel: number;
}

export class QuizSession {
  readonly container: HTMLElement;
  readonly options: QuizOptions;
  readonly engine: QuizEngine;
  readonly calls: QuizCalls;
  readonly t: Translate;
  readonly language: Language;
  readonly random: () => number;
  readonly bank: PreparedBank;
  readonly set: QuizSet;
  readonly labelled: boolean;
  readonly graded: PreparedItem[];
  readonly further: PreparedItem[];
  /** The questions on show: the set asked, and the deeper ones once the learner went on to them. */
  items: PreparedItem[];
  itemIndex: Map<string, number>;
  readonly passMark: number | null;
  readonly storage: GuardedStorage;
  readonly bankName: string | undefined;
  readonly bankProblem: string | undefined;
  readonly headingLevel: number;
  progress: QuizProgress;
  readonly views = new Map<string, ItemView>();
  readonly itemElements = new Map<string, HTMLLIElement>();
  readonly timers = new Set<ReturnType<typeof setTimeout>>();
  destroyed = false;
  /** Set by mountQuiz once the frame and the actions exist. */
  frame!: QuizFrame;
  actions!: QuizActions;
  private readonly idPrefix = uniqueId('quiz');

  constructor(setup: QuizSetup) {
    this.container = setup.container;
    this.options = setup.options;
    this.engine = setup.engine;
    this.calls = quizCalls(setup.engine);
    this.t = setup.t;
    this.language = setup.language;
    this.random = setup.random;
    this.bank = setup.bank;
    this.set = setup.set;
    this.labelled = setup.labelled;
    this.graded = setup.graded;
    this.further = setup.further;
    this.progress = setup.progress;
    this.items = [];
    this.itemIndex = new Map();
    this.showItems(this.progress.continued);
    this.passMark = setup.passMark;
    this.storage = setup.storage;
    this.bankName = setup.bankName;
    this.bankProblem = setup.bankProblem;
    this.headingLevel = setup.headingLevel;
  }

  /** Both sets' questions: the progress covers them all, whichever are on show. */
  get known(): PreparedItem[] {
    return [...this.graded, ...this.further];
  }

  /** Puts the deeper questions on show after the set asked (with), or takes them off (without). */
  showItems(withFurther: boolean): void {
    this.items = withFurther && this.further.length > 0 ? [...this.graded, ...this.further] : this.graded.slice();
    this.itemIndex = new Map(this.items.map((item, index) => [item.id, index]));
  }

  /** An id unique in the document (the quiz may share it with other widgets). */
  uid(name: string): string {
    return `${this.idPrefix}-${name}`;
  }

  /** Every number the quiz writes is the engine's, in the widget's language. */
  count(value: number): string {
    return this.engine.formatCount(value);
  }

  /** Whole percents, as the pass mark is meant ("70%", "70 %" where the language spaces it). */
  percent(fraction: number): string {
    return this.engine.formatQuantity(Math.round(fraction * 100) / 100, 'percent', 0);
  }

  stateOf(item: PreparedItem) {
    return item.practice ? this.progress.practice!.item : this.progress.items[item.id]!;
  }

  /** The bank item behind a question, practice or scored. */
  bankItemOf(item: PreparedItem): PreparedItem {
    if (!item.practice) return item;
    const id = item.id.slice(PRACTICE_PREFIX.length);
    return this.bank.items.find((entry) => entry.id === id) ?? item;
  }

  /** Each takeaway of the bank with its questions in the scored set and its mastery (docs/quiz.md, "Practice"). */
  takeaways() {
    return takeawayProgress(this.progress, this.graded, this.bank.takeaways);
  }

  /** The engine's instance for the item's seed; a seed whose numbers the engine refuses falls back to the numbers as authored. */
  private instanceFor(item: PreparedItem): QuizInstance | null {
    const seed = this.stateOf(item).seed;
    let instance = this.calls.instance(item.json, seed);
    if ((!instance || instance.errors.length > 0) && seed !== 0) {
      const run = this.progress.practice;
      if (item.practice && run) this.progress = { ...this.progress, practice: { ...run, item: { ...run.item, seed: 0 } } };
      else this.progress = retryItem(this.progress, item.id, 0);
      instance = this.calls.instance(item.json, 0);
    }
    return instance && instance.errors.length === 0 ? instance : null;
  }

  grade(item: PreparedItem, answer: Answer | Record<string, never>): QuizGrade | null {
    return this.calls.grade(item.json, this.stateOf(item).seed, answer);
  }

  viewOf(item: PreparedItem): ItemView {
    let view = this.views.get(item.id);
    if (!view) {
      view = { instance: this.instanceFor(item), grade: null, since: Date.now() };
      const state = this.stateOf(item);
      if (state.status !== 'new') {
        // After a reload: grade the kept answer again to bring its feedback back.
        const regraded = state.answer ? this.grade(item, state.answer) : null;
        view.grade = regraded && (regraded.status === 'correct' || regraded.status === 'incorrect') ? regraded : this.grade(item, {});
      }
      this.views.set(item.id, view);
    }
    return view;
  }

  /** Takes in what another tab or widget saved under the same key: item by item, latest wins. */
  absorbSaved(): boolean {
    const saved = this.storage.load();
    if (saved === null) return false;
    const before = this.progress;
    this.progress = mergeProgress(this.progress, deserializeProgress(saved, this.known));
    const changed = changedItemIds(before, this.progress);
    const masteryMoved = masteryChanged(before, this.progress);
    for (const id of changed) {
      this.views.delete(id);
      const index = this.itemIndex.get(id);
      const item = index === undefined ? undefined : this.items[index];
      if (item && this.itemElements.has(id)) this.actions.replaceItem(item);
    }
    return changed.length > 0 || masteryMoved;
  }

  persist(): void {
    this.absorbSaved();
    this.storage.save(serializeProgress(this.progress, this.known));
    this.frame.storageNote.hidden = this.storage.persistent;
  }

  /** The score of the set asked: what the host and the LMS receive. Deeper questions gone on to never change it. */
  currentScore(): ScoreDetail {
    return { ...score(this.progress, this.graded, this.passMark), set: this.set, takeaways: this.takeaways() };
  }

  /** How far the learner is through the questions on show (the progress line, the navigation). */
  shownScore(): QuizScore {
    return score(this.progress, this.items, null);
  }

  emitScore(answer?: AnswerDetail): void {
    if (answer) this.container.dispatchEvent(new CustomEvent(ANSWER_EVENT, { bubbles: true, composed: true, detail: answer }));
    this.container.dispatchEvent(new CustomEvent(SCORE_EVENT, { bubbles: true, composed: true, detail: this.currentScore() }));
  }

  /** Tells the host that `takeaway` is now mastered (for xAPI's own "mastered" statement). */
  emitMastery(takeaway: string): void {
    const entry = this.takeaways().find((candidate) => candidate.id === takeaway);
    if (!entry) return;
    const detail: MasteryDetail = { takeaway: entry };
    this.container.dispatchEvent(new CustomEvent(MASTERY_EVENT, { bubbles: true, composed: true, detail }));
  }

  /** The answer (answer null: the solution shown) just recorded, as the answer event tells the host. */
  describeAnswer(item: PreparedItem, answer: Answer | null, wasCompleted: boolean): AnswerDetail {
    const state = this.stateOf(item);
    const view = this.viewOf(item);
    const now = Date.now();
    const latency = Math.max(0, now - view.since);
    view.since = now;
    return {
      bank: this.bank.bankId,
      itemId: item.id,
      kind: item.kind,
      prompt: view.instance?.prompt ?? '',
      options: view.instance?.options.map((option) => ({ id: option.id, text: option.text })) ?? [],
      correctOptions: item.options.filter((option) => option.correct).map((option) => option.id),
      response: !answer ? '' : 'text' in answer ? answer.text : answer.choices.join('[,]'),
      correct: state.status === 'correct',
      revealed: answer === null,
      credit: itemCredit(state),
      completesQuiz: !wasCompleted && this.currentScore().completed,
      takeaway: item.takeaway,
      takeawayTitle: this.bank.takeaways.find((takeaway) => takeaway.id === item.takeaway)?.text ?? '',
      language: this.language,
      expected: item.numeric ? (view.grade?.expected_display ?? view.instance?.expected_display ?? '') : '',
      latency,
    };
  }

  /** Runs `work` after `ms` unless the quiz is destroyed first. */
  later(work: () => void, ms: number): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.destroyed) work();
    }, ms);
    this.timers.add(timer);
    return timer;
  }

  cancel(timer: ReturnType<typeof setTimeout> | undefined): void {
    if (timer === undefined) return;
    clearTimeout(timer);
    this.timers.delete(timer);
  }

  announce(message: string): void {
    // Cleared first so that the same words twice are still read twice.
    this.frame.live.textContent = '';
    this.later(() => {
      this.frame.live.textContent = message;
    }, 30);
  }

  /** The item's legend, for focus. */
  legendOf(id: string): HTMLElement | null {
    return this.itemElements.get(id)?.querySelector<HTMLElement>('.ts-quiz-legend') ?? null;
  }
}
