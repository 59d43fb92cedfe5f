// "Check your understanding": the lesson's self-check, for a learner working alone. Every
// answer is graded by the engine (src/engine/quiz/quiz.hpp) and answered with an explanation, the
// feedback for what was picked or typed, and a way to see the case in the simulation. The quiz
// renders inside any container, in a document or a shadow root: it never looks outside its own
// root and gives every id an instance prefix. This file mounts it: it reads the bank and the
// saved progress, builds the frame and the questions, and wires the navigation; the jobs live in
// session.ts (state, engine calls, saving), frame.ts, item-view.ts, feedback.ts, summary.ts and actions.ts.

import { translator, type Language, type Translate } from '../i18n/i18n';
import { quizActions } from './actions';
import { isAuthorBank, prepareBank, withBankTranslations, describeProblem, type PreparedBank } from './bank';
import { buildFrame } from './frame';
import { renderItem } from './item-view';
import { QuizSession } from './session';
import { bankDisplayName, describeLoadProblem, type AuthorBank } from './source';
import {
  chooseSet,
  deserializeProgress,
  mergeProgress,
  nextSeed,
  nextUnanswered,
  QUIZ_SETS,
  selectItems,
  validPassMark,
  type QuizProgress,
  type QuizSet,
} from './state';
import { defaultQuizStorage, guardStorage } from './storage';
import type { BankTranslations, QuizEngine, QuizStorage, ScoreDetail } from './types';

export type {
  Answer,
  AnswerDetail,
  BankTranslations,
  MasteryDetail,
  MasteryState,
  QuizEngine,
  QuizStorage,
  ScoreDetail,
  TakeawayProgress,
} from './types';

export interface QuizOptions {
  /**
   * The wasm module (or anything with its quiz functions), speaking the widget's language: it
   * writes every number the quiz shows, asks each item in its translation into that language,
   * and reads the learner's typed answers as that language writes numbers.
   */
  engine: QuizEngine;
  /** Writes the quiz's own words in the widget's language (web/src/i18n/i18n.ts). Default: English. */
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
  /**
   * Which questions to ask (docs/quiz.md, "Sets"): "lesson" (the default; the learner may then go on
   * to the deeper ones), "deeper" or "all". The score and the pass mark cover this set.
   */
  set?: QuizSet;
  /** Ask each learner this many questions of the set, drawn by their seed. Wins over the bank's `draw`. */
  draw?: number;
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
  /**
   * Practice may raise the score (the element's `practice-counts="on"`; docs/quiz.md, "Practice"):
   * a right practice answer to a scored question not yet right counts as a later try. Default: off,
   * so the score stays the learner's tries at the questions themselves.
   */
  practiceCounts?: boolean;
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
  /** False when the figure only holds the answer as one of its parts (the engine's `show.answer_drawn`): the page says so. */
  answerDrawn: boolean;
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

export { ANSWER_EVENT, MASTERY_EVENT, SCORE_EVENT } from './session';

/** The author's bank's name and why it failed, in the widget's language when the host gave the reason, else the host's own sentence. */
function bankSource(
  options: QuizOptions,
  t: Translate,
  engine: QuizEngine,
): { bankName: string | undefined; bankProblem: string | undefined } {
  const authorBank = options.authorBank ?? null;
  const bankName = authorBank ? bankDisplayName(authorBank.name, t) : options.bankName;
  const bankProblem = authorBank?.reason
    ? describeLoadProblem(authorBank.name, authorBank.reason, t, (bytes) => engine.formatQuantity(bytes, 'bytes', 0))
    : authorBank
      ? (authorBank.problem ?? undefined)
      : options.bankProblem;
  return { bankName, bankProblem };
}

/**
 * This learner's questions and progress. The learner's seed is drawn once, then saved with the
 * progress: it picks the questions drawn from a larger bank, their order, and each question's
 * option order. States an earlier version kept under other keys for this quiz (storage.ts) join in.
 */
function readProgress(bank: PreparedBank, saved: string | null, legacyStates: readonly string[], random: () => number, asking: Asking) {
  let learner = deserializeProgress(saved, bank.items).learner;
  for (const legacy of legacyStates) learner = learner || deserializeProgress(legacy, bank.items).learner;
  if (learner === 0) learner = nextSeed(0, random);
  const choice = chooseSet(bank.items, asking.set);
  // The draw picks from the set asked; a learner who goes on is asked every deeper question.
  const graded = selectItems(choice.asked, { order: bank.settings.order, draw: asking.draw ?? bank.settings.draw }, learner);
  const further = selectItems(choice.further, { order: bank.settings.order, draw: null }, learner);
  // Progress covers both sets, so answers to deeper questions (and an earlier version's, which
  // asked every question) are kept whether or not the learner has gone on to them.
  const known = [...graded, ...further];
  let progress: QuizProgress = deserializeProgress(saved, known);
  for (const legacy of legacyStates) progress = mergeProgress(progress, deserializeProgress(legacy, known));
  return { choice, graded, further, progress: { ...progress, learner } };
}

/** The set and draw the host asked for, checked: anything else is the default (the settings say why). */
interface Asking {
  set: QuizSet;
  draw: number | null;
}

function asking(options: QuizOptions): Asking {
  const set = QUIZ_SETS.includes(options.set as QuizSet) ? (options.set as QuizSet) : 'lesson';
  const draw = typeof options.draw === 'number' && Number.isInteger(options.draw) && options.draw >= 1 ? options.draw : null;
  return { set, draw };
}

/** The author reads the bank's problems in the console, one line per problem. */
function reportProblems(session: QuizSession): void {
  const { t, bankName, bankProblem } = session;
  if (bankProblem) console.warn(t('quizui.console.load_problem', 'trainscope quiz: {problem}', { problem: bankProblem }));
  for (const problem of session.bank.problems) {
    console.warn(
      t('quizui.console.bank_problem', 'trainscope quiz ({bank}): {problem}', {
        bank: bankName ?? t('quizui.console.bank', 'bank'),
        problem: describeProblem(problem, t),
      }),
    );
  }
}

function startSession(container: HTMLElement, options: QuizOptions): QuizSession {
  const engine = options.engine;
  const t: Translate = options.t ?? translator(null);
  const language: Language = options.language ?? 'en';
  const random = options.random ?? Math.random;
  const { bankName, bankProblem } = bankSource(options, t, engine);
  // The built-in bank (also when it stands in for an author's that failed) gets the language
  // pack's translations; an author's bank is asked as its author wrote it.
  const bankToAsk = isAuthorBank({ bankName, bankProblem })
    ? options.bank
    : withBankTranslations(options.bank, language, options.bankTranslations);
  const bank = prepareBank(engine, bankToAsk, { t, language });
  const storage = guardStorage(options.storage ?? defaultQuizStorage(bank.bankId, options.instanceKey));
  const wanted = asking(options);
  const { choice, graded, further, progress } = readProgress(bank, storage.load(), storage.loadLegacy(), random, wanted);
  if (choice.fellBack)
    console.warn(
      t('quizui.console.set_fell_back', 'trainscope quiz: the bank has no question in the set “{set}”; every question is asked.', {
        set: wanted.set,
      }),
    );
  return new QuizSession({
    container,
    options,
    engine,
    t,
    language,
    random,
    bank,
    set: choice.set,
    labelled: choice.labelled,
    graded,
    further,
    progress,
    storage,
    bankName,
    bankProblem,
    // The host's pass mark (attribute, LMS) wins over the bank's own.
    passMark: validPassMark(options.passMark) ?? bank.settings.passMark,
    headingLevel: Math.min(5, Math.max(2, Math.round(options.headingLevel ?? 2))),
  });
}

/** The mode toggle and the navigation buttons. */
function wireNavigation(session: QuizSession): void {
  // The questions on show are read at each click: going on to the deeper ones adds to them.
  const { frame, actions } = session;
  frame.modeToggle.addEventListener('click', () => {
    const items = session.items;
    const single = session.progress.mode === 'one';
    session.progress = { ...session.progress, mode: single ? 'all' : 'one' };
    if (!single && session.progress.current === null && !session.shownScore().completed)
      session.progress.current = nextUnanswered(session.progress, items, null);
    session.persist();
    actions.renderChrome();
  });
  frame.previousButton.addEventListener('click', () => {
    const items = session.items;
    const index = session.progress.current === null ? items.length : (session.itemIndex.get(session.progress.current) ?? 0);
    if (index > 0) actions.show(items[index - 1]!.id, 'legend');
  });
  frame.resultsButton.addEventListener('click', () => actions.show(null, 'summary'));
  frame.nextButton.addEventListener('click', () => {
    const items = session.items;
    const action = frame.nextButton.dataset.action;
    if (action === 'back') {
      actions.show(nextUnanswered(session.progress, items, null) ?? items[0]!.id, 'legend');
    } else if (action === 'results') {
      actions.show(null, 'summary');
    } else {
      const index = session.itemIndex.get(session.progress.current ?? '') ?? -1;
      actions.show(items[index + 1]?.id ?? null, items[index + 1] ? 'legend' : 'summary');
    }
  });
}

export function mountQuiz(container: HTMLElement, options: QuizOptions): QuizHandle {
  const session = startSession(container, options);
  reportProblems(session);
  session.frame = buildFrame(session);
  session.actions = quizActions(session);
  wireNavigation(session);
  const { items } = session;
  for (const item of items) {
    const li = renderItem(session, item);
    session.itemElements.set(item.id, li);
    session.frame.list.append(li);
  }
  const current = session.progress.current;
  if (current !== null && !session.itemIndex.has(current)) {
    // A deeper question saved as the current one, but the learner has not gone on (a state saved
    // before sets, or in another tab): the first unanswered question, else the summary.
    session.progress = { ...session.progress, current: nextUnanswered(session.progress, items, null) };
  } else if (current === null && !session.shownScore().completed && items.length > 0) {
    session.progress = { ...session.progress, current: nextUnanswered(session.progress, items, null) };
  }
  // A practice run on a question the bank no longer has is over.
  const run = session.progress.practice;
  if (run && !session.bank.items.some((item) => item.id === run.itemId)) session.progress = { ...session.progress, practice: null };
  // Seeds that had to fall back, or a state read from garbage, are written back cleaned.
  if (items.length > 0) session.persist();
  session.frame.storageNote.hidden = session.storage.persistent;
  session.actions.renderChrome();
  // Another tab (or widget with the same key) saved: show its answers here too.
  const stopListening = session.storage.subscribe(() => {
    if (session.destroyed) return;
    if (session.absorbSaved()) session.actions.renderChrome();
  });
  return {
    element: session.frame.root,
    score: () => session.currentScore(),
    reset: () => session.actions.reset(),
    destroy() {
      session.destroyed = true;
      stopListening();
      for (const timer of session.timers) clearTimeout(timer);
      session.timers.clear();
      session.frame.root.remove();
    },
  };
}
