// Types for the learner-facing quiz. The engine speaks JSON text (src/engine/quiz/quiz.hpp); these
// describe what it returns, and the one interface the quiz needs from it (engine/quiz.ts holds the
// engine's side: the module's quiz functions and their answers, read there).

export type { BankProblem, GradeStatus, ItemKind, QuantityReading, QuizEngine, QuizGrade, QuizInstance } from '../engine/quiz';
import type { ItemKind } from '../engine/quiz';
import type { QuizSet } from './state';

/**
 * The built-in bank's translations into one language, as i18n/<lang>/bank.json keeps them apart
 * from the bank (docs/i18n.md, "The quiz bank"): a takeaway's text by its id, an item's
 * translation (prompt, explanation, options, misconceptions) by its id.
 */
export interface BankTranslations {
  takeaways?: Record<string, string>;
  items?: Record<string, unknown>;
}

export interface Takeaway {
  id: string;
  text: string;
}

/** What the learner gave: typed text for numeric and estimate items, option ids for choices. */
export type Answer = { text: string } | { choices: string[] };

/** The score over a list of questions (state.ts's `score`). */
export interface QuizScore {
  /**
   * Points: 1 for a question right at the first try, 0.5 for one right at a later try, 0 once its
   * solution was shown (docs/quiz.md, "Scoring"). The SCORM score is score / max.
   */
  score: number;
  /** Questions whose last answer is right, whatever the try and whether the solution was shown. */
  right: number;
  /** Questions in the quiz (usable items of the bank). */
  max: number;
  /** score / max, 0..1 (0 when there are no questions). */
  scaled: number;
  /** null without a pass mark; with one: true once scaled ≥ passMark, false once completed below it, else null. */
  passed: boolean | null;
  /** Every question has been answered (or its solution shown). */
  completed: boolean;
  /** Questions answered so far. */
  answered: number;
}

/** The detail of the `trainscope-score` event, and of QuizHandle.score(): the score of the set asked. */
export interface ScoreDetail extends QuizScore {
  /**
   * The questions the score and the pass mark cover (docs/quiz.md, "Sets"): "lesson" (the default),
   * "deeper" or "all". Deeper questions a learner goes on to after the lesson set never change it.
   */
  set: QuizSet;
  /** Per takeaway of the bank, in the bank's order: what the learner has shown so far (docs/quiz.md, "Practice"). */
  takeaways?: TakeawayProgress[];
}

/** A takeaway's mastery: no graded answer yet; answered, not yet two right in a row; two right in a row without show-me. */
export type MasteryState = 'not-started' | 'practising' | 'mastered';

/** One takeaway in the score event's `takeaways` (and the `trainscope-mastery` event's detail). */
export interface TakeawayProgress {
  /** The bank's takeaway id (stable; the objective id in an LMS). */
  id: string;
  /** The takeaway's text in the widget's language. */
  title: string;
  /** Questions of this takeaway in the scored set. */
  items: number;
  /** Of those, right at the first try (the honest score's share). */
  firstTryCorrect: number;
  mastery: MasteryState;
}

/** The detail of the `trainscope-mastery` event, dispatched when a takeaway becomes mastered. */
export interface MasteryDetail {
  takeaway: TakeawayProgress;
}

/**
 * What the learner just did: the detail of the `trainscope-answer` event that the quiz dispatches
 * right before the `trainscope-score` event of an answer or a shown solution, so that a host (or
 * web/ship/xapi.ts) can describe it; the score itself stays in the score event alone.
 */
export interface AnswerDetail {
  /** The bank's id (bank.ts): with the item's id, a stable name for the question. */
  bank: string;
  itemId: string;
  kind: ItemKind;
  /** The question as this learner saw it (with its drawn numbers). */
  prompt: string;
  /** Choice items: the options as shown, and which are right. Empty for typed answers. */
  options: { id: string; text: string }[];
  correctOptions: string[];
  /** Choice ids joined by "[,]" (the xAPI choice format), or the text the learner typed. */
  response: string;
  correct: boolean;
  /** The solution was shown rather than an answer given. */
  revealed: boolean;
  /** Points this question now earns (1, 0.5 or 0; docs/quiz.md, "Scoring"). */
  credit: number;
  /** This answer (or solution) was the last one missing: the quiz is now complete. */
  completesQuiz: boolean;
  /** The bank's takeaway this question checks (the objective an LMS records it under). */
  takeaway: string;
  /** That takeaway's text in the widget's language ('' when the bank gives none). */
  takeawayTitle: string;
  /** The widget's language ('en', 'de', 'es'): the language of prompt, options and expected. */
  language: string;
  /** Typed questions: the right answer as the engine writes it ("16 bytes"); '' for choices. */
  expected: string;
  /** Milliseconds from the question's numbers being shown (or its last verdict) to this answer. */
  latency: number;
}

/** Where progress is kept: localStorage by default; a SCORM adapter can use cmi.suspend_data. */
export interface QuizStorage {
  load(): string | null;
  save(state: string): void;
  /** States kept under keys of earlier versions, merged in at the start (see storage.ts). */
  loadLegacy?(): string[];
  /** Calls `listener` when another tab or widget saved under the same key; returns how to stop. */
  subscribe?(listener: () => void): () => void;
}
