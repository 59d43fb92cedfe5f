// xAPI statements for the quiz (docs/embedding.md, "xAPI"): every answer and the completion,
// derived from the `trainscope-score` event (and the `trainscope-answer` event just before it,
// which says what was answered), so the score has one source (the quiz's state) and
// xAPI, SCORM and the host all read the same figures. The widget only dispatches the statements
// as a `trainscope-xapi` DOM event; the host forwards them to its LRS. Nothing here touches the
// network. Reference: xAPI 1.0.3 (IEEE 9274.1.1), Data §2.4; ADL verb IRIs; the cmi.interaction
// activity type and its interactionType / response formats (Data §2.4.4.1, "Interaction Activities").

import type { AnswerDetail, ScoreDetail } from '../src/quiz/types';
import { formatDuration, questionName, takeawayScaled, takeawayStates, type TakeawayState } from './report';

/** A score event's detail with the answer event that came just before it (if any). */
export interface ScoreWithAnswer extends ScoreDetail {
  answer?: AnswerDetail;
}

export const XAPI_EVENT = 'trainscope-xapi';
export const XAPI_VERSION = '1.0.3';

export interface Verb {
  id: string;
  display: Record<string, string>;
}

const adlVerb = (name: string): Verb => ({ id: `http://adlnet.gov/expapi/verbs/${name}`, display: { 'en-US': name } });

/** ADL's verb IRIs (the ones cmi5 also prescribes). */
export const VERBS = {
  answered: adlVerb('answered'),
  completed: adlVerb('completed'),
  passed: adlVerb('passed'),
  failed: adlVerb('failed'),
  initialized: adlVerb('initialized'),
  terminated: adlVerb('terminated'),
  mastered: adlVerb('mastered'),
} as const;

export const ACTIVITY_TYPES = {
  interaction: 'http://adlnet.gov/expapi/activities/cmi.interaction',
  assessment: 'http://adlnet.gov/expapi/activities/assessment',
  objective: 'http://adlnet.gov/expapi/activities/objective',
} as const;

/** The event the quiz dispatches when a takeaway becomes mastered (detail: { takeaway }). */
export const MASTERY_EVENT = 'trainscope-mastery';

export interface XapiScore {
  scaled: number;
  raw: number;
  min: number;
  max: number;
}

export interface XapiResult {
  score?: XapiScore;
  success?: boolean;
  completion?: boolean;
  response?: string;
  duration?: string;
  extensions?: Record<string, unknown>;
}

export interface XapiActivity {
  objectType: 'Activity';
  id: string;
  definition?: Record<string, unknown>;
}

export interface XapiContext {
  registration?: string;
  contextActivities?: Record<string, XapiActivity[] | { id: string; objectType?: string }[]>;
  extensions?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A statement as the widget makes it. No actor: the widget does not know the learner; the host adds one. */
export interface XapiStatement {
  id: string;
  timestamp: string;
  actor?: Record<string, unknown>;
  verb: Verb;
  object: XapiActivity;
  result?: XapiResult;
  context?: XapiContext;
}

export interface StatementOptions {
  /** The quiz's activity IRI; items are `<quiz>/item/<item id>`. Default `urn:trainscope:quiz:<bank id>`. */
  activity?: string;
  now?: () => Date;
  newId?: () => string;
}

/** The quiz's activity IRI: the host's, or one built from the bank's id (stable for a bank). */
export function quizActivityId(bank: string, activity?: string): string {
  const given = activity?.trim();
  return given ? given.replace(/\/+$/, '') : `urn:trainscope:quiz:${bank}`;
}

/** An item's activity IRI: stable across seeds, learners and builds (the item id is the bank's). */
export function itemActivityId(quizActivity: string, itemId: string): string {
  return `${quizActivity}/item/${encodeURIComponent(itemId)}`;
}

/** A version-4 UUID (xAPI statement ids are UUIDs); getRandomValues exists outside secure contexts too. */
export function uuid(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A takeaway's activity IRI: the quiz's, then `/objective/<takeaway id>`. */
export function objectiveActivityId(quizActivity: string, takeaway: string): string {
  return `${quizActivity}/objective/${encodeURIComponent(takeaway)}`;
}

/** The language tag of the widget's words (xAPI language maps are keyed by RFC 5646 tags). */
function languageOf(answer: Pick<AnswerDetail, 'language'> | null | undefined): string {
  return answer?.language || 'en';
}

function answerObject(quizActivity: string, answer: AnswerDetail): XapiActivity {
  const choice = answer.kind === 'single_choice' || answer.kind === 'multiple_select';
  const language = languageOf(answer);
  const definition: Record<string, unknown> = {
    type: ACTIVITY_TYPES.interaction,
    // Named by its words in the learner's language: the prompt's first sentence; the IRI (the item's id) stays the same.
    name: { [language]: questionName(answer.prompt) || answer.itemId },
    description: { [language]: answer.prompt || answer.itemId },
    // Typed quantities ("1.5 TB") are read by the engine with a tolerance: a fill-in.
    interactionType: choice ? 'choice' : 'fill-in',
  };
  if (choice) {
    definition.choices = answer.options.map((option) => ({ id: option.id, description: { [language]: option.text } }));
    definition.correctResponsesPattern = [answer.correctOptions.join('[,]')];
  } else if (answer.expected) {
    // The right answer as the engine writes it: what a report shows beside the learner's; success says whether it was read as right.
    definition.correctResponsesPattern = [answer.expected];
  }
  return { objectType: 'Activity', id: itemActivityId(quizActivity, answer.itemId), definition };
}

/** A takeaway as an xAPI activity of type objective, named by its words when the quiz gives them. */
export function objectiveObject(quizActivity: string, takeaway: Pick<TakeawayState, 'id' | 'title'>, language: string): XapiActivity {
  const definition: Record<string, unknown> = { type: ACTIVITY_TYPES.objective };
  if (takeaway.title) definition.name = { [language]: takeaway.title };
  return { objectType: 'Activity', id: objectiveActivityId(quizActivity, takeaway.id), definition };
}

function quizObject(quizActivity: string): XapiActivity {
  return {
    objectType: 'Activity',
    id: quizActivity,
    definition: { type: ACTIVITY_TYPES.assessment, name: { en: 'Check your understanding' } },
  };
}

/** The quiz's score as xAPI's: raw in points (1 per question right at the first try), scaled 0..1. */
export function quizScore(detail: Pick<ScoreWithAnswer, 'score' | 'max' | 'scaled'>): XapiScore {
  return { scaled: round(detail.scaled), raw: round(detail.score), min: 0, max: detail.max };
}

/** Four decimals: a scaled score of 2/3 need not carry 17 digits into an LRS. */
function round(value: number): number {
  return Math.round(value * 10000) / 10000;
}

/**
 * The statements one `trainscope-score` event stands for: "answered" for an answer (not for a
 * shown solution: nothing was answered), then, when that answer completed the quiz, "completed"
 * and, with a pass mark, "passed" or "failed". An event without an answer (none today) gives none.
 */
export function statementsFor(detail: ScoreWithAnswer, options: StatementOptions = {}): XapiStatement[] {
  const answer = detail.answer;
  if (!answer) return [];
  const now = options.now ?? (() => new Date());
  const newId = options.newId ?? uuid;
  const quiz = quizActivityId(answer.bank, options.activity);
  const timestamp = now().toISOString();
  const statements: XapiStatement[] = [];
  if (!answer.revealed) {
    const result: XapiResult = {
      success: answer.correct,
      response: answer.response,
      score: { scaled: answer.credit, raw: answer.credit, min: 0, max: 1 },
    };
    if (Number.isFinite(answer.latency) && answer.latency >= 0) result.duration = formatDuration(answer.latency);
    const contextActivities: NonNullable<XapiContext['contextActivities']> = { parent: [{ objectType: 'Activity', id: quiz }] };
    if (answer.takeaway) {
      // The takeaway the question checks, as an objective: its title when the score event carries the takeaways.
      const title = takeawayStates(detail, []).find((state) => state.id === answer.takeaway)?.title || answer.takeawayTitle || '';
      contextActivities.grouping = [objectiveObject(quiz, { id: answer.takeaway, title }, languageOf(answer))];
    }
    statements.push({
      id: newId(),
      timestamp,
      verb: VERBS.answered,
      object: answerObject(quiz, answer),
      result,
      context: { contextActivities },
    });
  }
  if (answer.completesQuiz) {
    const score = quizScore(detail);
    const success = detail.passed === null ? undefined : detail.passed;
    statements.push({
      id: newId(),
      timestamp,
      verb: VERBS.completed,
      object: quizObject(quiz),
      result: success === undefined ? { completion: true, score } : { completion: true, success, score },
    });
    if (success !== undefined) {
      statements.push({
        id: newId(),
        timestamp,
        verb: success ? VERBS.passed : VERBS.failed,
        object: quizObject(quiz),
        result: { completion: true, success, score },
      });
    }
  }
  return statements;
}

/**
 * The statement a takeaway's mastery stands for (the quiz's `trainscope-mastery` event): "mastered"
 * about the takeaway's objective activity, with its first-try share as the score, in the quiz.
 */
export function masteryStatement(bank: string, takeaway: TakeawayState, language: string, options: StatementOptions = {}): XapiStatement {
  const quiz = quizActivityId(bank, options.activity);
  const scaled = takeawayScaled(takeaway);
  return {
    id: (options.newId ?? uuid)(),
    timestamp: (options.now ?? (() => new Date()))().toISOString(),
    verb: VERBS.mastered,
    object: objectiveObject(quiz, takeaway, language),
    result: { success: true, completion: true, score: { scaled, raw: takeaway.firstTryCorrect, min: 0, max: takeaway.items } },
    context: { contextActivities: { parent: [{ objectType: 'Activity', id: quiz }] } },
  };
}

/**
 * Dispatches a `trainscope-xapi` event (detail: one statement) for each statement a score event
 * stands for, from where the score event started, bubbling and composed, so it leaves a shadow
 * root and reaches the host page. Returns how to stop.
 */
export function emitXapi(root: HTMLElement, options: Omit<StatementOptions, 'now' | 'newId'> = {}): () => void {
  // The quiz dispatches the answer event, then the score event; the statements need both.
  let pending: AnswerDetail | null = null;
  const onAnswer = (event: Event) => {
    pending = (event as CustomEvent<AnswerDetail>).detail ?? null;
  };
  const onScore = (event: Event) => {
    const score = (event as CustomEvent<ScoreDetail>).detail;
    const answer = pending;
    pending = null;
    if (!score || !answer) return;
    const origin = (event.composedPath()[0] as EventTarget | undefined) ?? root;
    for (const statement of statementsFor({ ...score, answer }, options)) {
      origin.dispatchEvent(new CustomEvent(XAPI_EVENT, { bubbles: true, composed: true, detail: statement }));
    }
  };
  // The mastered statement names the quiz by the bank of the answers before it.
  let last: AnswerDetail | null = null;
  const onMastery = (event: Event) => {
    const given = (event as CustomEvent<{ takeaway?: unknown }>).detail?.takeaway;
    const [takeaway] = takeawayStates({ takeaways: given ? [given] : [] } as unknown as ScoreDetail, []);
    if (!takeaway || !last) return;
    const origin = (event.composedPath()[0] as EventTarget | undefined) ?? root;
    const statement = masteryStatement(last.bank, takeaway, languageOf(last), options);
    origin.dispatchEvent(new CustomEvent(XAPI_EVENT, { bubbles: true, composed: true, detail: statement }));
  };
  const remember = (event: Event) => {
    last = (event as CustomEvent<AnswerDetail>).detail ?? last;
  };
  root.addEventListener('trainscope-answer', onAnswer);
  root.addEventListener('trainscope-answer', remember);
  root.addEventListener('trainscope-score', onScore);
  root.addEventListener(MASTERY_EVENT, onMastery);
  return () => {
    root.removeEventListener('trainscope-answer', onAnswer);
    root.removeEventListener('trainscope-answer', remember);
    root.removeEventListener('trainscope-score', onScore);
    root.removeEventListener(MASTERY_EVENT, onMastery);
  };
}
