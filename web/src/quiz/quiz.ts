// "Check your understanding": the lesson's self-check, for a learner working alone. Every
// answer is graded by the engine (src/engine/quiz/quiz.hpp) and answered with an explanation, the
// feedback for what was picked or typed, and a way to see the case in the simulation. The quiz
// renders inside any container, in a document or a shadow root: it never looks outside its own
// root and gives every id an instance prefix.

import { translator, type Language, type Translate } from '../i18n/i18n';
import { callEngine, describeProblem, isAuthorBank, prepareBank, withBankTranslations, type PreparedBank, type PreparedItem } from './bank';
import { builder, type Builder, type Child } from './dom';
import { bankDisplayName, describeLoadProblem, type AuthorBank } from './source';
import {
  changedItemIds,
  deserializeProgress,
  initialProgress,
  isAnswered,
  itemCredit,
  mergeProgress,
  nextSeed,
  nextUnanswered,
  recordAnswer,
  retryItem,
  retryMissed,
  optionOrder,
  revealSolution,
  selectItems,
  score,
  serializeProgress,
  summarize,
  validPassMark,
  type QuizProgress,
} from './state';
import { defaultQuizStorage, guardStorage, type GuardedStorage } from './storage';
import type { Answer, AnswerDetail, BankTranslations, QuantityReading, QuizEngine, QuizGrade, QuizInstance, QuizStorage, ScoreDetail } from './types';

export type { Answer, AnswerDetail, BankTranslations, QuizEngine, QuizStorage, ScoreDetail } from './types';

export interface QuizOptions {
  /**
   * The wasm module (or anything with its quiz functions), speaking the widget's language: it
   * writes every number the quiz shows, asks each item in its translation into that language,
   * and reads the learner's typed answers as that language writes numbers.
   */
  engine: QuizEngine;
  /** Writes the quiz's own words in the widget's language (web/src/i18n.ts). Default: English. */
  t?: Translate;
  /** The widget's language. Default 'en'. */
  language?: Language;
  /**
   * The built-in bank's translations into `language` (the language pack's "bank",
   * i18n/<lang>/bank.json), put into its items before the engine validates them. Ignored for an
   * author's bank, which brings its own `translations`.
   */
  bankTranslations?: BankTranslations;
  /**
   * The author's bank as the host read it (source.ts): with it the quiz writes the bank's name and
   * why it could not be loaded in the widget's language. Wins over `bankName` and `bankProblem`.
   */
  authorBank?: AuthorBank | null;
  /** The parsed bank.json (its JSON text is accepted too). */
  bank: unknown;
  /**
   * "Show me in the simulation": receives the item's scenario (docs/scenario.md) and where to land:
   * the item's section and figure, its question number, and `back()`, which brings the learner
   * back to the question. Without it, no such button.
   */
  onShowInSimulation?(scenario: object, target: ShowMeTarget): void;
  /** Where progress is kept. Default: localStorage under "trainscope-quiz:<bank id>[:<instanceKey>]". */
  storage?: QuizStorage;
  /** 0..1. Only with a pass mark is `passed` computed (and mentioned, gently). Wins over the bank's `pass_mark`. */
  passMark?: number;
  /** The author's bank's name (its file or "the bank in the page"), for notices and the console. */
  bankName?: string;
  /** Why the author's bank could not be used (it failed to load): shown above the questions. */
  bankProblem?: string;
  /** Tells apart two quizzes on one page (or one origin) that use the same bank. */
  instanceKey?: string;
  /** The quiz's heading; null when the host page supplies its own. Default "Check your understanding". */
  heading?: string | null;
  /** Level of that heading (2–5). Default 2. */
  headingLevel?: number;
  /** For tests: the source of new seeds. Default Math.random. */
  random?: () => number;
}

/** Where a question's "show me" lands, and the way back to the question. */
export interface ShowMeTarget {
  /** The page's section (data-ts-section) and figure (data-figure), as the bank names them. */
  section: string;
  figure: string;
  /** The step section's moment to open at (docs/quiz.md, "show"): "peak" or a phase, else null. */
  moment: string | null;
  /** The item's id and its number in the quiz (1-based, as "Question 10 of 21" shows it). */
  itemId: string;
  question: number;
  /** The engine's answer for the instance asked (numeric and estimate items), else null. */
  expected: number | null;
  /** Shows the question again and moves focus to it. */
  back(): void;
}

export interface QuizHandle {
  /** The quiz's root element (inside the container). */
  readonly element: HTMLElement;
  /** The score now, as the `trainscope-score` event reports it. */
  score(): ScoreDetail;
  /** Forgets every answer and starts again from the first question. */
  reset(): void;
  /** Removes the quiz and its timers. */
  destroy(): void;
}

export const SCORE_EVENT = 'trainscope-score';
/** Dispatched right before the score event of an answer or a shown solution (detail: AnswerDetail). */
export const ANSWER_EVENT = 'trainscope-answer';

const READ_AS_DELAY_MS = 250;
let instanceCounter = 0;

interface ItemView {
  instance: QuizInstance | null;
  /** The last graded answer's result (correct or incorrect), or the solution's grade. */
  grade: QuizGrade | null;
}

/** A CSS length for the score meter: not text, so never localised. */
function cssPercent(fraction: number): string {
  return `${Math.round(fraction * 100)}%`;
}

/**
 * A translated sentence with one placeholder shown as an element (a <strong> answer): the
 * translator moves the placeholder, so the sentence is split around it rather than built in
 * English word order.
 */
function withElement(template: string, name: string, element: Node): Child[] {
  const marker = `{${name}}`;
  const at = template.indexOf(marker);
  if (at < 0) return [template, ' ', element];
  return [template.slice(0, at), element, template.slice(at + marker.length)].filter((part) => part !== '');
}

export function mountQuiz(container: HTMLElement, options: QuizOptions): QuizHandle {
  const doc = container.ownerDocument;
  const h: Builder = builder(doc);
  const engine = options.engine;
  const t: Translate = options.t ?? translator(null);
  const language: Language = options.language ?? 'en';
  const random = options.random ?? Math.random;
  const prefix = `ts-quiz-${(instanceCounter += 1)}-${Math.floor(Math.random() * 1e6).toString(36)}`;
  const uid = (name: string) => `${prefix}-${name}`;

  // Every number the quiz writes is the engine's, in the widget's language.
  const count = (value: number): string => engine.formatCount(value);
  // Whole percents, as the pass mark is meant ("70%", "70 %" where the language spaces it).
  const percent = (fraction: number): string => engine.formatQuantity(Math.round(fraction * 100) / 100, 'percent', 0);
  /** Half points as "7½", whole ones as "7". */
  const formatPoints = (points: number): string => {
    const whole = Math.floor(points + 1e-9);
    return points - whole > 0.25 ? (whole === 0 ? '½' : `${count(whole)}½`) : count(whole);
  };
  const kindHint = (kind: string): string => {
    switch (kind) {
      case 'single_choice': return t('quizui.hint.single_choice', 'Choose one answer.');
      case 'multiple_select': return t('quizui.hint.multiple_select', 'Select all that apply.');
      case 'numeric': return t('quizui.hint.numeric', 'Type a number with its unit.');
      case 'estimate': return t('quizui.hint.estimate', 'A rough estimate is enough: the right order of magnitude counts.');
      default: return '';
    }
  };

  // The author's bank: its name and why it failed, in the widget's language when the host gave
  // the reason, else the host's own sentence.
  const authorBank = options.authorBank ?? null;
  const bankName = authorBank ? bankDisplayName(authorBank.name, t) : options.bankName;
  const bankProblem = authorBank?.reason
    ? describeLoadProblem(authorBank.name, authorBank.reason, t, (bytes) => engine.formatQuantity(bytes, 'bytes', 0))
    : (authorBank ? authorBank.problem ?? undefined : options.bankProblem);
  // The built-in bank (also when it stands in for an author's that failed) gets the language
  // pack's translations; an author's bank is asked as its author wrote it.
  const bankToAsk = isAuthorBank({ bankName, bankProblem }) ? options.bank : withBankTranslations(options.bank, language, options.bankTranslations);
  const bank: PreparedBank = prepareBank(engine, bankToAsk, { t, language });
  // The host's pass mark (attribute, LMS) wins over the bank's own.
  const passMark = validPassMark(options.passMark) ?? bank.settings.passMark;
  const storage: GuardedStorage = guardStorage(options.storage ?? defaultQuizStorage(bank.bankId, options.instanceKey));
  const saved = storage.load();
  const legacyStates = storage.loadLegacy();
  // This learner's seed: drawn once, then saved with the progress (at the end of mounting). It
  // picks the questions drawn from a larger bank, their order, and each question's option order.
  let learner = deserializeProgress(saved, bank.items).learner;
  for (const legacy of legacyStates) learner = learner || deserializeProgress(legacy, bank.items).learner;
  if (learner === 0) learner = nextSeed(0, random);
  const items = selectItems(bank.items, bank.settings, learner);
  const itemIndex = new Map(items.map((item, index) => [item.id, index]));
  let progress: QuizProgress = deserializeProgress(saved, items);
  // States an earlier version kept under other keys for this quiz (storage.ts) join in.
  for (const legacy of legacyStates) progress = mergeProgress(progress, deserializeProgress(legacy, items));
  progress = { ...progress, learner };
  // The author reads the same list in the console, one line per problem.
  if (bankProblem) console.warn(t('quizui.console.load_problem', 'trainscope quiz: {problem}', { problem: bankProblem }));
  for (const problem of bank.problems) {
    console.warn(t('quizui.console.bank_problem', 'trainscope quiz ({bank}): {problem}', {
      bank: bankName ?? t('quizui.console.bank', 'bank'),
      problem: describeProblem(problem, t),
    }));
  }
  const views = new Map<string, ItemView>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let destroyed = false;

  // ── Engine calls ────────────────────────────────────────────────────────────────────────────
  const instanceFor = (item: PreparedItem): QuizInstance | null => {
    const seed = progress.items[item.id]!.seed;
    let instance = callEngine<QuizInstance>(() => engine.quizInstance(item.json, seed));
    if ((!instance || instance.errors.length > 0) && seed !== 0) {
      // A seed that draws numbers the engine refuses: fall back to the numbers as authored.
      progress = retryItem(progress, item.id, 0);
      instance = callEngine<QuizInstance>(() => engine.quizInstance(item.json, 0));
    }
    return instance && instance.errors.length === 0 ? instance : null;
  };
  const grade = (item: PreparedItem, answer: Answer | Record<string, never>): QuizGrade | null =>
    callEngine<QuizGrade>(() => engine.quizGrade(item.json, progress.items[item.id]!.seed, JSON.stringify(answer)));

  const viewOf = (item: PreparedItem): ItemView => {
    let view = views.get(item.id);
    if (!view) {
      view = { instance: instanceFor(item), grade: null };
      const state = progress.items[item.id]!;
      if (isAnswered(state)) {
        // After a reload: grade the kept answer again to bring its feedback back.
        const regraded = state.answer ? grade(item, state.answer) : null;
        view.grade = regraded && (regraded.status === 'correct' || regraded.status === 'incorrect') ? regraded : grade(item, {});
      }
      views.set(item.id, view);
    }
    return view;
  };

  // ── Saving and telling the host ─────────────────────────────────────────────────────────────
  /** Takes in what another tab or widget saved under the same key: item by item, latest wins. */
  const absorbSaved = (): boolean => {
    const saved = storage.load();
    if (saved === null) return false;
    const before = progress;
    progress = mergeProgress(progress, deserializeProgress(saved, items));
    const changed = changedItemIds(before, progress);
    for (const id of changed) {
      views.delete(id);
      const item = items[itemIndex.get(id)!];
      if (item && itemElements.has(id)) replaceItem(item);
    }
    return changed.length > 0;
  };
  const persist = () => {
    absorbSaved();
    storage.save(serializeProgress(progress, items));
    storageNote.hidden = storage.persistent;
  };
  const currentScore = (): ScoreDetail => score(progress, items, passMark);
  const emitScore = (answer?: AnswerDetail) => {
    if (answer) container.dispatchEvent(new CustomEvent(ANSWER_EVENT, { bubbles: true, composed: true, detail: answer }));
    container.dispatchEvent(new CustomEvent(SCORE_EVENT, { bubbles: true, composed: true, detail: currentScore() }));
  };
  /** The answer (answer null: the solution shown) just recorded, as the answer event tells the host. */
  const describeAnswer = (item: PreparedItem, answer: Answer | null, wasCompleted: boolean): AnswerDetail => {
    const state = progress.items[item.id]!;
    const view = viewOf(item);
    return {
      bank: bank.bankId,
      itemId: item.id,
      kind: item.kind,
      prompt: view.instance?.prompt ?? '',
      options: view.instance?.options.map((option) => ({ id: option.id, text: option.text })) ?? [],
      correctOptions: item.options.filter((option) => option.correct).map((option) => option.id),
      response: !answer ? '' : 'text' in answer ? answer.text : answer.choices.join('[,]'),
      correct: state.status === 'correct',
      revealed: answer === null,
      credit: itemCredit(state),
      completesQuiz: !wasCompleted && currentScore().completed,
    };
  };
  const announce = (message: string) => {
    // Cleared first so that the same words twice are still read twice.
    live.textContent = '';
    const timer = setTimeout(() => {
      timers.delete(timer);
      live.textContent = message;
    }, 30);
    timers.add(timer);
  };

  // ── The frame ───────────────────────────────────────────────────────────────────────────────
  const headingLevel = Math.min(5, Math.max(2, Math.round(options.headingLevel ?? 2)));
  const headingTag = `h${headingLevel}` as 'h2';
  const subheadingTag = `h${headingLevel + 1}` as 'h3';
  const heading = options.heading === null ? null : h(headingTag, { className: 'ts-quiz-title', id: uid('title') }, options.heading ?? t('quizui.heading', 'Check your understanding'));
  const intro = h('p', { className: 'ts-quiz-intro' },
    t('quizui.intro', 'A self-check, not an exam: answer at your own pace. Every answer comes with an explanation, and you can try again with new numbers.'));
  const progressText = h('p', { className: 'ts-quiz-progress-text', id: uid('progress') });
  const progressBar = h('ol', { className: 'ts-quiz-progress-bar', 'aria-hidden': 'true' });
  const modeToggle = h('button', { type: 'button', className: 'ts-quiz-button ts-quiz-button-quiet ts-quiz-mode', 'aria-pressed': 'false' }, t('quizui.mode.all_at_once', 'Show all questions at once'));
  const storageNote = h('p', { className: 'ts-quiz-storage-note', hidden: true }, t('quizui.storage.page_only', 'Your answers are kept only while this page stays open.'));
  const notice = problemsNotice();
  const list = h('ol', { className: 'ts-quiz-items' });
  const previousButton = h('button', { type: 'button', className: 'ts-quiz-button ts-quiz-button-quiet', 'data-action': 'previous' }, t('quizui.nav.previous', '← Previous'));
  const nextButton = h('button', { type: 'button', className: 'ts-quiz-button', 'data-action': 'next' }, t('quizui.nav.next', 'Next question →'));
  // Once every question is answered, the results are one step away from wherever the learner is.
  const resultsButton = h('button', { type: 'button', className: 'ts-quiz-button ts-quiz-button-primary', 'data-action': 'results' }, t('quizui.nav.results', 'See your results'));
  const nav = h('div', { className: 'ts-quiz-nav' }, previousButton, resultsButton, nextButton);
  const summarySection = h('section', { className: 'ts-quiz-summary', 'aria-labelledby': uid('summary-title'), hidden: true });
  const pending = h('p', { className: 'ts-quiz-pending', hidden: true });
  const live = h('div', { className: 'ts-quiz-live', 'aria-live': 'polite', 'aria-atomic': 'true' });

  // With a heading the quiz is a region landmark named by it, so the host's container should be
  // a plain box (two landmarks with one name is an axe failure); with heading: null, a plain box.
  const root = h(heading ? 'section' : 'div', { className: 'ts-quiz-root', 'data-ts-quiz': '', 'aria-labelledby': heading ? uid('title') : null },
    h('header', { className: 'ts-quiz-header' },
      heading,
      intro,
      items.length > 0 ? h('div', { className: 'ts-quiz-toolbar' }, h('div', { className: 'ts-quiz-progress' }, progressText, progressBar), modeToggle) : null,
      storageNote,
      notice),
    list, nav, pending, summarySection, live);
  container.appendChild(root);

  function problemsNotice(): HTMLElement | null {
    const loadProblem = bankProblem ? h('p', { className: 'ts-quiz-bank-problem' }, bankProblem) : null;
    if (bank.problems.length === 0) return loadProblem ? h('div', { className: 'ts-quiz-notice', role: 'status' }, loadProblem) : null;
    const left = bank.skipped.length;
    const usable = bank.items.length;
    const named = { name: bankName ?? '', count: count(left) };
    let lead: string;
    if (usable === 0) {
      lead = bankName
        ? t('quizui.notice.none_usable_named', 'The questions for this self-check could not be loaded: the question bank “{name}” has mistakes the quiz cannot work around.', named)
        : t('quizui.notice.none_usable', 'The questions for this self-check could not be loaded: the question bank has mistakes the quiz cannot work around.');
    } else if (left > 0) {
      const leftOut = left === 1
        ? (bankName
          ? t('quizui.notice.left_out_one_named', '{count} question was left out because it has mistakes in the question bank “{name}”.', named)
          : t('quizui.notice.left_out_one', '{count} question was left out because it has mistakes in the question bank.', named))
        : (bankName
          ? t('quizui.notice.left_out_other_named', '{count} questions were left out because they have mistakes in the question bank “{name}”.', named)
          : t('quizui.notice.left_out_other', '{count} questions were left out because they have mistakes in the question bank.', named));
      const others = usable === 1
        ? t('quizui.notice.others_work_one', 'The other {count} question works as usual.', { count: count(usable) })
        : t('quizui.notice.others_work_other', 'The other {count} questions work as usual.', { count: count(usable) });
      lead = `${leftOut} ${others}`;
    } else {
      lead = bankName
        ? t('quizui.notice.small_mistakes_named', 'The question bank “{name}” has small mistakes; every question can still be asked.', named)
        : t('quizui.notice.small_mistakes', 'The question bank has small mistakes; every question can still be asked.');
    }
    return h('div', { className: `ts-quiz-notice${items.length === 0 ? ' ts-quiz-notice-error' : ''}`, role: items.length === 0 ? 'alert' : null },
      loadProblem,
      h('p', null, lead),
      h('details', { className: 'ts-quiz-notice-details' },
        h('summary', null, bank.problems.length === 1
          ? t('quizui.notice.details_one', 'Details for the course author ({count} problem)', { count: count(1) })
          : t('quizui.notice.details_other', 'Details for the course author ({count} problems)', { count: count(bank.problems.length) })),
        h('ul', null, bank.problems.map((problem) => h('li', null, describeProblem(problem, t))))));
  }

  // ── One question ────────────────────────────────────────────────────────────────────────────
  const itemElements = new Map<string, HTMLLIElement>();

  function renderItem(item: PreparedItem): HTMLLIElement {
    const index = itemIndex.get(item.id)!;
    const state = progress.items[item.id]!;
    const view = viewOf(item);
    const instance = view.instance;
    const id = (name: string) => uid(`${index}-${name}`);
    const answered = state.status !== 'new';
    const li = h('li', {
      className: `ts-quiz-item ts-quiz-status-${state.status}`,
      'data-item-id': item.id,
      'data-status': state.status,
      'data-seed': String(state.seed),
      'data-kind': item.kind,
    });

    if (!instance) {
      li.append(h('p', { className: 'ts-quiz-notice ts-quiz-notice-error' },
        t('quizui.item.not_prepared', 'Question {number} could not be prepared by the engine, so it is skipped.', { number: count(index + 1) })));
      return li;
    }

    const legend = h('legend', { className: 'ts-quiz-legend', id: id('legend'), tabindex: '-1' },
      h('span', { className: 'ts-quiz-number' }, t('quizui.item.number', 'Question {number} of {total}', { number: count(index + 1), total: count(items.length) })),
      h('span', { className: 'ts-quiz-prompt' }, instance.prompt));
    const hint = h('p', { className: 'ts-quiz-hint', id: id('hint') }, kindHint(item.kind));
    const inputError = h('p', { className: 'ts-quiz-input-error', id: id('error'), hidden: true });
    const fieldset = h('fieldset', { className: 'ts-quiz-fieldset', 'aria-describedby': id('hint') }, legend, hint);

    const chosen = new Set(view.grade?.options.filter((option) => option.selected).map((option) => option.id) ?? []);
    if (!item.numeric) {
      const type = item.kind === 'single_choice' ? 'radio' : 'checkbox';
      const optionList = h('ul', { className: `ts-quiz-options ts-quiz-options-${type}` });
      optionOrder(instance.options, item.id, progress.learner, state.seed).forEach((option, optionIndex) => {
        const inputId = id(`option-${optionIndex}`);
        const feedbackId = id(`option-${optionIndex}-feedback`);
        const graded = view.grade?.options.find((entry) => entry.id === option.id);
        const authored = item.options.find((entry) => entry.id === option.id);
        const isCorrect = graded?.correct ?? authored?.correct ?? false;
        const selected = chosen.has(option.id);
        // Feedback on every option once the question is settled; after a wrong answer only on
        // what was picked, so that trying again still means thinking (the engine's rule too).
        const showFeedback = state.status === 'correct' || state.status === 'revealed' || (state.status === 'incorrect' && selected);
        const showVerdict = showFeedback && (state.status !== 'incorrect' || selected);
        const input = h('input', {
          type,
          id: inputId,
          name: id('choice'),
          value: option.id,
          className: 'ts-quiz-choice-input',
          disabled: answered,
          'aria-describedby': showFeedback ? feedbackId : null,
        });
        input.checked = selected;
        const verdictText = !showVerdict
          ? ''
          : isCorrect
            ? (selected ? t('quizui.option.chosen_right', 'Your choice: right.') : t('quizui.option.right', 'A right answer.'))
            : selected ? t('quizui.option.chosen_wrong', 'Your choice: not right.') : t('quizui.option.wrong', 'Not right.');
        const rowClass = ['ts-quiz-option'];
        if (selected) rowClass.push('ts-quiz-option-selected');
        if (showVerdict) rowClass.push(isCorrect ? 'ts-quiz-option-right' : 'ts-quiz-option-wrong');
        optionList.append(h('li', { className: rowClass.join(' '), 'data-option-id': option.id, 'data-verdict': showVerdict ? (isCorrect ? 'right' : 'wrong') : null },
          h('label', { className: 'ts-quiz-option-label', for: inputId }, input, h('span', { className: 'ts-quiz-option-text' }, option.text)),
          showFeedback
            ? h('p', { className: 'ts-quiz-option-feedback', id: feedbackId },
              h('span', { className: 'ts-quiz-option-verdict' }, h('span', { className: 'ts-quiz-mark', 'aria-hidden': 'true' }, isCorrect ? '✓' : '✗'), ` ${verdictText}`),
              ' ', graded?.feedback || authored?.feedback || '')
            : null));
      });
      fieldset.append(optionList, inputError);
    } else {
      const inputId = id('answer');
      const readAsId = id('read-as');
      const input = h('input', {
        type: 'text',
        id: inputId,
        className: 'ts-quiz-text-input',
        autocomplete: 'off',
        autocapitalize: 'off',
        spellcheck: 'false',
        disabled: answered,
        'aria-describedby': `${id('hint')} ${readAsId} ${id('error')}`,
      });
      const typed = state.answer && 'text' in state.answer ? state.answer.text : '';
      if (answered) input.value = typed;
      const readAs = h('p', { className: 'ts-quiz-read-as', id: readAsId });
      const lead = item.kind === 'estimate' && instance.tolerance_factor
        ? t('quizui.hint.estimate_factor', 'An estimate is enough: anything within a factor of {factor} of the answer counts.', {
          factor: engine.formatQuantity(instance.tolerance_factor, 'plain', 0),
        })
        : instance.unit === '' && item.kind === 'numeric'
          // A plain count (GPU-hours, a ratio) has no unit to ask for.
          ? t('quizui.hint.plain_number', 'Type a number.')
          : kindHint(item.kind);
      hint.textContent = instance.unit ? t('quizui.hint.any_unit', '{hint} Any unit works; a plain number is read in {unit}.', { hint: lead, unit: instance.unit_name || instance.unit }) : lead;
      fieldset.append(h('div', { className: 'ts-quiz-answer' },
        h('label', { className: 'ts-quiz-answer-label', for: inputId }, t('quizui.answer.label', 'Your answer')),
        input, readAs, inputError));
      if (!answered) input.addEventListener('input', () => scheduleReadAs(input, readAs, instance));
      else if (view.grade?.answer_display) readAs.textContent = t('quizui.answer.read_as', 'Read as {value}.', { value: view.grade.answer_display });
    }

    // Not a <form>: a sandboxed iframe without allow-forms blocks form submission outright (the
    // submit event never fires), so checking is a button click, and Enter in the answer field.
    const form = h('div', { className: 'ts-quiz-form' }, fieldset);
    const checkOnce = () => {
      if (progress.items[item.id]!.status === 'new') checkItem(item);
    };
    if (!answered) {
      const check = h('button', { type: 'button', className: 'ts-quiz-button ts-quiz-button-primary', 'data-action': 'check' }, t('quizui.action.check', 'Check answer'));
      check.addEventListener('click', checkOnce);
      const reveal = h('button', { type: 'button', className: 'ts-quiz-button ts-quiz-button-quiet', 'data-action': 'reveal' }, t('quizui.action.reveal', 'Show solution'));
      reveal.addEventListener('click', () => revealItem(item));
      form.append(h('div', { className: 'ts-quiz-actions' }, check, reveal));
      form.querySelector<HTMLInputElement>('.ts-quiz-text-input')?.addEventListener('keydown', (event) => {
        if (event.key !== 'Enter' || event.isComposing) return;
        event.preventDefault();
        checkOnce();
      });
    }
    li.append(form);
    if (answered) li.append(renderFeedback(item, index, instance, view));
    return li;
  }

  function renderFeedback(item: PreparedItem, index: number, instance: QuizInstance, view: ItemView): HTMLElement {
    const state = progress.items[item.id]!;
    const result = view.grade;
    const verdict = state.status === 'correct'
      ? t('quizui.feedback.correct', 'Correct')
      : state.status === 'incorrect' ? t('quizui.feedback.incorrect', 'Not quite') : t('quizui.feedback.solution', 'The solution');
    const mark = state.status === 'correct' ? '✓' : state.status === 'incorrect' ? '✗' : 'ⓘ';
    const feedback = h('div', { className: `ts-quiz-feedback ts-quiz-feedback-${state.status}`, id: uid(`${index}-feedback`), tabindex: '-1' });
    feedback.append(h('p', { className: 'ts-quiz-verdict' }, h('span', { className: 'ts-quiz-mark', 'aria-hidden': 'true' }, mark), ` ${verdict}`));

    if (state.status === 'correct' || state.status === 'incorrect') {
      if (result && (result.status === 'correct' || result.status === 'incorrect')) {
        if (item.numeric && result.answer_display && state.status === 'incorrect') {
          feedback.append(h('p', { className: 'ts-quiz-your-answer' }, t('quizui.feedback.you_answered', 'You answered {answer}.', { answer: result.answer_display })));
        }
        // A single choice's message is the picked option's feedback, already shown beside it.
        if (item.kind !== 'single_choice') feedback.append(h('p', { className: 'ts-quiz-message' }, result.message));
      }
    }
    // A right numeric answer's message already names the answer ("Correct: 1.12 TB.").
    if (state.status === 'revealed') {
      if (item.numeric && instance.expected_display) {
        feedback.append(h('p', { className: 'ts-quiz-expected' },
          withElement(t('quizui.feedback.the_answer', 'The answer: {answer}.'), 'answer', h('strong', null, instance.expected_display))));
      } else if (!item.numeric) {
        // The options as the engine asked them: in the widget's language when the item has a translation.
        const right = item.options.filter((option) => option.correct)
          .map((option) => instance.options.find((asked) => asked.id === option.id)?.text ?? option.text);
        if (state.status === 'revealed') {
          const template = right.length === 1
            ? t('quizui.feedback.right_answer', 'The right answer: {answer}.')
            : t('quizui.feedback.right_answers', 'The right answers: {answers}.');
          feedback.append(h('p', { className: 'ts-quiz-expected' },
            withElement(template, right.length === 1 ? 'answer' : 'answers', h('strong', null, right.join(t('quizui.feedback.answers_separator', '; '))))));
        }
      }
    }
    // The "Why" states the answer, so it waits until the question is settled (right, or its
    // solution shown): after a wrong answer, trying again still means thinking.
    const explanation = state.status === 'incorrect' ? '' : result?.explanation;
    if (explanation) {
      feedback.append(h('div', { className: 'ts-quiz-explanation' }, h('p', null, h('strong', null, t('quizui.feedback.why', 'Why:')), ' ', explanation)));
    }

    const simulation = instance.simulation;
    if (options.onShowInSimulation && simulation) {
      const show = h('button', { type: 'button', className: 'ts-quiz-button-link ts-quiz-simulation', 'data-action': 'simulation' }, t('quizui.action.show_me', 'Show me in the simulation'));
      show.addEventListener('click', () => {
        try {
          options.onShowInSimulation?.(structuredCloneSafe(simulation), {
            section: instance.show?.section ?? '',
            figure: instance.show?.figure ?? '',
            moment: instance.show?.moment ?? null,
            itemId: item.id,
            question: index + 1,
            expected: instance.expected,
            back: () => backTo(item.id),
          });
        } catch (error) {
          console.warn(t('quizui.console.show_me_failed', '[trainscope quiz] onShowInSimulation failed'), error);
        }
      });
      feedback.append(h('p', { className: 'ts-quiz-simulation-row' }, show));
    }
    const actions = h('div', { className: 'ts-quiz-actions' });
    if (state.status !== 'correct') {
      const again = h('button', { type: 'button', className: 'ts-quiz-button', 'data-action': 'retry' },
        item.randomized ? t('quizui.action.retry_new_numbers', 'Try again with new numbers') : t('quizui.action.retry', 'Try again'));
      again.addEventListener('click', () => retry(item));
      actions.append(again);
    }
    if (state.status === 'incorrect') {
      const reveal = h('button', { type: 'button', className: 'ts-quiz-button ts-quiz-button-quiet', 'data-action': 'reveal' }, t('quizui.action.reveal', 'Show solution'));
      reveal.addEventListener('click', () => revealItem(item));
      actions.append(reveal);
    }
    if (actions.childElementCount > 0) feedback.append(actions);
    return feedback;
  }

  function structuredCloneSafe(value: Record<string, unknown>): object {
    return JSON.parse(JSON.stringify(value)) as object;
  }

  function scheduleReadAs(input: HTMLInputElement, readAs: HTMLElement, instance: QuizInstance) {
    const previous = (input as HTMLInputElement & { tsQuizTimer?: ReturnType<typeof setTimeout> }).tsQuizTimer;
    if (previous) {
      clearTimeout(previous);
      timers.delete(previous);
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (destroyed) return;
      readAs.textContent = readAsText(input.value, instance);
    }, READ_AS_DELAY_MS);
    timers.add(timer);
    (input as HTMLInputElement & { tsQuizTimer?: ReturnType<typeof setTimeout> }).tsQuizTimer = timer;
  }

  function readAsText(text: string, instance: QuizInstance): string {
    if (text.trim() === '') return '';
    const reading = callEngine<QuantityReading>(() => engine.quizReadQuantity(text));
    if (!reading) return '';
    // What the engine cannot read says why ("eight": type the number in digits), rather than nothing.
    if (!reading.ok) return reading.error;
    if (!reading.display) return '';
    if (!reading.has_unit && instance.unit) {
      // The engine writes the number in the question's unit, so "1" reads as "1 GPU", not "1 GPUs".
      const inUnit = callEngine<QuantityReading>(() => engine.quizReadQuantity(`${reading.display} ${instance.unit}`));
      const shown = inUnit?.ok && inUnit.display ? inUnit.display : `${reading.display} ${instance.unit}`;
      return t('quizui.answer.read_as_in_unit', 'Read as {value} (a number without a unit is read in {unit}).', { value: shown, unit: instance.unit_name || instance.unit });
    }
    return t('quizui.answer.read_as', 'Read as {value}.', { value: reading.display });
  }

  function readAnswer(item: PreparedItem, li: HTMLElement): Answer {
    if (item.numeric) {
      const input = li.querySelector<HTMLInputElement>('.ts-quiz-text-input');
      return { text: input?.value ?? '' };
    }
    const checked = Array.from(li.querySelectorAll<HTMLInputElement>('.ts-quiz-choice-input')).filter((input) => input.checked);
    return { choices: checked.map((input) => input.value) };
  }

  function showInputError(li: HTMLElement, message: string) {
    const error = li.querySelector<HTMLElement>('.ts-quiz-input-error');
    if (!error) return;
    error.textContent = message;
    error.hidden = false;
    const inputs = li.querySelectorAll<HTMLInputElement>('.ts-quiz-text-input, .ts-quiz-choice-input');
    inputs.forEach((input) => input.setAttribute('aria-invalid', 'true'));
    const target = li.querySelector<HTMLInputElement>('.ts-quiz-text-input') ?? li.querySelector<HTMLInputElement>('.ts-quiz-choice-input:checked') ?? inputs[0];
    // The text field already names the error through aria-describedby; radios get it announced.
    target?.focus();
    announce(message);
  }

  // ── Actions ─────────────────────────────────────────────────────────────────────────────────
  function checkItem(item: PreparedItem) {
    const li = itemElements.get(item.id);
    if (!li) return;
    const answer = readAnswer(item, li);
    const result = grade(item, answer);
    if (!result) {
      showInputError(li, t('quizui.error.not_checked', 'This answer could not be checked just now. Please try once more.'));
      return;
    }
    if (!result.counts_as_attempt || (result.status !== 'correct' && result.status !== 'incorrect')) {
      showInputError(li, result.message || t('quizui.error.no_answer', 'Please give an answer first.'));
      return;
    }
    const wasCompleted = currentScore().completed;
    progress = recordAnswer(progress, item.id, answer, result.status === 'correct');
    viewOf(item).grade = result;
    const verdict = result.status === 'correct'
      ? t('quizui.announce.correct', 'Correct. {message}', { message: result.message })
      : t('quizui.announce.incorrect', 'Not quite. {message}', { message: result.message });
    settle(item, verdict, describeAnswer(item, answer, wasCompleted));
  }

  function revealItem(item: PreparedItem) {
    const view = viewOf(item);
    const state = progress.items[item.id]!;
    const wasCompleted = currentScore().completed;
    progress = revealSolution(progress, item.id);
    // Keep the graded answer (its choices are shown beside the solution); otherwise ask the
    // engine for the explanation alone.
    if (!view.grade || state.status === 'new') view.grade = grade(item, {});
    settle(item, t('quizui.announce.solution', 'Here is the solution.'), describeAnswer(item, null, wasCompleted));
  }

  /** After an answer or a solution: save, redraw, tell the host, move focus to the feedback. */
  function settle(item: PreparedItem, message: string, answer: AnswerDetail) {
    persist();
    const li = replaceItem(item);
    renderChrome();
    const completed = currentScore().completed;
    li.querySelector<HTMLElement>('.ts-quiz-feedback')?.focus();
    announce(completed && progress.mode === 'all'
      ? t('quizui.announce.last_question', '{message} That was the last question: your results are below.', { message })
      : message);
    emitScore(answer);
  }

  function retry(item: PreparedItem) {
    const state = progress.items[item.id]!;
    // A new seed also for choice questions: it reshuffles their options (optionOrder).
    progress = retryItem(progress, item.id, nextSeed(state.seed, random));
    views.delete(item.id);
    persist();
    const li = replaceItem(item);
    renderChrome();
    li.querySelector<HTMLElement>('.ts-quiz-legend')?.focus();
  }

  function replaceItem(item: PreparedItem): HTMLLIElement {
    const old = itemElements.get(item.id);
    const fresh = renderItem(item);
    fresh.hidden = old ? old.hidden : false;
    if (old) old.replaceWith(fresh);
    itemElements.set(item.id, fresh);
    return fresh;
  }

  function show(id: string | null, focus: 'legend' | 'summary' | null) {
    progress = { ...progress, current: id };
    persist();
    renderChrome();
    if (focus === 'legend' && id) {
      itemElements.get(id)?.querySelector<HTMLElement>('.ts-quiz-legend')?.focus();
    } else if (focus === 'summary') {
      summarySection.querySelector<HTMLElement>('.ts-quiz-summary-title')?.focus();
    }
  }

  // ── Progress, navigation, summary ───────────────────────────────────────────────────────────
  function renderChrome() {
    const now = currentScore();
    const single = progress.mode === 'one';
    const completed = now.completed;
    root.classList.toggle('ts-quiz-mode-one', single);
    root.classList.toggle('ts-quiz-mode-all', !single);
    modeToggle.setAttribute('aria-pressed', String(!single));
    const summaryShown = single ? progress.current === null : completed;

    const currentIndex = progress.current === null ? -1 : (itemIndex.get(progress.current) ?? -1);
    progressText.textContent = single && currentIndex >= 0
      ? t('quizui.progress.one', 'Question {number} of {total} · {answered} answered, {right} right', {
        number: count(currentIndex + 1), total: count(items.length), answered: count(now.answered), right: count(now.right),
      })
      : t('quizui.progress.all', '{answered} of {total} answered, {right} right', {
        answered: count(now.answered), total: count(items.length), right: count(now.right),
      });
    progressBar.replaceChildren(...items.map((item, index) => {
      const status = progress.items[item.id]!.status;
      const step = h('li', { className: `ts-quiz-step ts-quiz-step-${status}` });
      if (single && index === currentIndex) step.classList.add('ts-quiz-step-current');
      return step;
    }));

    for (const item of items) {
      const element = itemElements.get(item.id);
      if (element) element.hidden = single && item.id !== progress.current;
    }
    nav.hidden = !single || items.length === 0;
    resultsButton.hidden = !completed || progress.current === null || currentIndex === items.length - 1;
    if (single) {
      previousButton.hidden = progress.current === null || currentIndex <= 0;
      if (progress.current === null) {
        nextButton.textContent = t('quizui.nav.back', '← Back to the questions');
        nextButton.dataset.action = 'back';
      } else if (currentIndex === items.length - 1) {
        nextButton.textContent = t('quizui.nav.results', 'See your results');
        nextButton.dataset.action = 'results';
      } else {
        nextButton.textContent = t('quizui.nav.next', 'Next question →');
        nextButton.dataset.action = 'next';
      }
    }
    pending.hidden = single || completed || items.length === 0;
    const toGo = items.length - now.answered;
    pending.textContent = toGo === 1
      ? t('quizui.pending.one', 'Your results appear here once every question is answered ({count} question to go).', { count: count(toGo) })
      : t('quizui.pending.other', 'Your results appear here once every question is answered ({count} questions to go).', { count: count(toGo) });
    summarySection.hidden = !summaryShown || items.length === 0;
    if (!summarySection.hidden) renderSummary();
  }

  function renderSummary() {
    const summary = summarize(progress, items, bank.takeaways, passMark);
    const children: Node[] = [];
    children.push(h(subheadingTag, { className: 'ts-quiz-summary-title', id: uid('summary-title'), tabindex: '-1' },
      summary.completed ? t('quizui.summary.title', 'Your results') : t('quizui.summary.title_so_far', 'Your results so far')));
    const rightOf = h('strong', { className: 'ts-quiz-score-value' },
      t('quizui.summary.right_of', '{right} of {max}', { right: count(summary.right), max: count(summary.max) }));
    const score = h('p', { className: 'ts-quiz-score' },
      withElement(t('quizui.summary.questions_right', '{score} questions right'), 'score', rightOf),
      summary.answered > 0
        ? h('span', { className: 'ts-quiz-score-detail' }, ' ', t('quizui.summary.first_try', '({count} at the first try)', { count: count(summary.firstTry) }))
        : null);
    // The points are what the host and the LMS receive: 1 at the first try, ½ later, 0 after the solution.
    const pointsOf = h('strong', null, t('quizui.summary.points_of', '{points} of {max}', { points: formatPoints(summary.score), max: count(summary.max) }));
    const points = h('p', { className: 'ts-quiz-points' },
      withElement(t('quizui.summary.points', 'Score: {points} (1 point for a question right at the first try, ½ at a later try, none once its solution was shown).'), 'points', pointsOf));
    children.push(score, points);
    const meter = h('div', { className: 'ts-quiz-meter', 'aria-hidden': 'true' }, h('span', { className: 'ts-quiz-meter-fill' }));
    (meter.firstElementChild as HTMLElement).style.width = cssPercent(summary.scaled);
    if (passMark !== null) {
      const markLine = h('span', { className: 'ts-quiz-meter-mark' });
      markLine.style.left = cssPercent(passMark);
      meter.append(markLine);
    }
    children.push(meter);
    if (passMark !== null) {
      children.push(h('p', { className: 'ts-quiz-pass' }, summary.passed
        ? t('quizui.summary.pass_met', "That meets the course's pass mark of {mark}.", { mark: percent(passMark) })
        : t('quizui.summary.pass_not_met', "The course's pass mark is {mark}. The ideas below are the ones worth another look on the way there.", { mark: percent(passMark) })));
    }
    if (!summary.completed) {
      const left = summary.max - summary.answered;
      const go = h('button', { type: 'button', className: 'ts-quiz-button', 'data-action': 'first-unanswered' }, t('quizui.summary.first_unanswered', 'Go to the first unanswered question'));
      go.addEventListener('click', () => show(nextUnanswered(progress, items, null), 'legend'));
      children.push(h('p', { className: 'ts-quiz-unanswered' }, left === 1
        ? t('quizui.summary.unanswered_one', '{count} question is still unanswered.', { count: count(left) })
        : t('quizui.summary.unanswered_other', '{count} questions are still unanswered.', { count: count(left) })), go);
    }
    if (summary.revisit.length > 0) {
      children.push(h(`h${headingLevel + 2}` as 'h4', { className: 'ts-quiz-revisit-title' }, t('quizui.summary.revisit', 'Worth revisiting')));
      children.push(h('ul', { className: 'ts-quiz-revisit' }, summary.revisit.map((entry) =>
        h('li', { className: 'ts-quiz-revisit-item' },
          // Questions whose takeaway the bank does not list are grouped under no takeaway at all.
          h('p', { className: 'ts-quiz-takeaway' }, entry.takeaway.id === '' ? t('quizui.summary.other_questions', 'Other questions') : entry.takeaway.text),
          h('ul', { className: 'ts-quiz-revisit-questions' }, entry.itemIds.map((id) => {
            const index = itemIndex.get(id)!;
            const prompt = views.get(id)?.instance?.prompt ?? id;
            const jump = h('button', { type: 'button', className: 'ts-quiz-button-link ts-quiz-jump', 'data-item-id': id },
              h('span', { className: 'ts-quiz-jump-number' }, t('quizui.summary.question_number', 'Question {number}:', { number: count(index + 1) }), ' '), prompt);
            jump.addEventListener('click', () => goTo(id));
            return h('li', null, jump);
          }))))));
    } else if (summary.completed) {
      children.push(h('p', { className: 'ts-quiz-all-right' }, t('quizui.summary.all_right', 'Every answer right: nothing to revisit. Well done.')));
    }
    const actions = h('div', { className: 'ts-quiz-actions' });
    if (summary.missed.length > 0) {
      const again = h('button', { type: 'button', className: 'ts-quiz-button ts-quiz-button-primary', 'data-action': 'retry-missed' },
        summary.missed.length === 1
          ? t('quizui.summary.retry_missed_one', 'Retry the {count} missed question', { count: count(1) })
          : t('quizui.summary.retry_missed_other', 'Retry the {count} missed questions', { count: count(summary.missed.length) }));
      again.addEventListener('click', retryMissedItems);
      actions.append(again);
    }
    const restart = h('button', { type: 'button', className: 'ts-quiz-button ts-quiz-button-quiet', 'data-action': 'restart' }, t('quizui.summary.restart', 'Start again from scratch'));
    restart.addEventListener('click', () => {
      reset();
      itemElements.get(items[0]!.id)?.querySelector<HTMLElement>('.ts-quiz-legend')?.focus();
    });
    actions.append(restart);
    children.push(actions);
    summarySection.replaceChildren(...children);
  }

  /** Back from the simulation: the question on screen, scrolled to, with focus on its legend. */
  function backTo(id: string) {
    if (destroyed) return;
    if (progress.mode === 'one' && progress.current !== id) show(id, null);
    const element = itemElements.get(id);
    element?.scrollIntoView({ block: 'start' });
    element?.querySelector<HTMLElement>('.ts-quiz-legend')?.focus({ preventScroll: true });
  }

  function goTo(id: string) {
    if (progress.mode === 'one') show(id, 'legend');
    else itemElements.get(id)?.querySelector<HTMLElement>('.ts-quiz-legend')?.focus();
  }

  function retryMissedItems() {
    const missed = summarize(progress, items, bank.takeaways, passMark).missed;
    progress = retryMissed(progress, items, random);
    for (const id of missed) {
      views.delete(id);
      const item = items[itemIndex.get(id)!]!;
      replaceItem(item);
    }
    persist();
    renderChrome();
    if (missed[0]) itemElements.get(missed[0])?.querySelector<HTMLElement>('.ts-quiz-legend')?.focus();
    announce(missed.length === 1
      ? t('quizui.announce.retry_missed_one', '{count} question to try again, with new numbers where there are numbers.', { count: count(1) })
      : t('quizui.announce.retry_missed_other', '{count} questions to try again, with new numbers where there are numbers.', { count: count(missed.length) }));
  }

  function reset() {
    // Stamped now, so the restart wins over older answers saved by another tab.
    progress = { ...initialProgress(items, progress.mode, Date.now(), progress.learner) };
    views.clear();
    for (const item of items) replaceItem(item);
    persist();
    renderChrome();
  }

  // ── Wiring ──────────────────────────────────────────────────────────────────────────────────
  modeToggle.addEventListener('click', () => {
    const single = progress.mode === 'one';
    progress = { ...progress, mode: single ? 'all' : 'one' };
    if (!single && progress.current === null && !currentScore().completed) progress.current = nextUnanswered(progress, items, null);
    persist();
    renderChrome();
  });
  previousButton.addEventListener('click', () => {
    const index = progress.current === null ? items.length : (itemIndex.get(progress.current) ?? 0);
    if (index > 0) show(items[index - 1]!.id, 'legend');
  });
  resultsButton.addEventListener('click', () => show(null, 'summary'));
  nextButton.addEventListener('click', () => {
    const action = nextButton.dataset.action;
    if (action === 'back') {
      show(nextUnanswered(progress, items, null) ?? items[0]!.id, 'legend');
    } else if (action === 'results') {
      show(null, 'summary');
    } else {
      const index = itemIndex.get(progress.current ?? '') ?? -1;
      show(items[index + 1]?.id ?? null, items[index + 1] ? 'legend' : 'summary');
    }
  });

  for (const item of items) {
    const li = renderItem(item);
    itemElements.set(item.id, li);
    list.append(li);
  }
  if (progress.current === null && !currentScore().completed && items.length > 0) {
    progress = { ...progress, current: nextUnanswered(progress, items, null) };
  }
  // Seeds that had to fall back, or a state read from garbage, are written back cleaned.
  if (items.length > 0) persist();
  storageNote.hidden = storage.persistent;
  renderChrome();
  // Another tab (or widget with the same key) saved: show its answers here too.
  const stopListening = storage.subscribe(() => {
    if (destroyed) return;
    if (absorbSaved()) renderChrome();
  });

  return {
    element: root,
    score: currentScore,
    reset,
    destroy() {
      destroyed = true;
      stopListening();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      root.remove();
    },
  };
}
