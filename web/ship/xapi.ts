// xAPI statements for the quiz (docs/embedding.md, "xAPI"): every answer and the completion,
// derived from the `trainscope-score` event (and the `trainscope-answer` event just before it,
// which says what was answered), so the score has one source (the quiz's state) and
// xAPI, SCORM and the host all read the same figures. The widget only dispatches the statements
// as a `trainscope-xapi` DOM event; the host forwards them to its LRS. Nothing here touches the
// network. Reference: xAPI 1.0.3 (IEEE 9274.1.1), Data §2.4; ADL verb IRIs; the cmi.interaction
// activity type and its interactionType / response formats (Data §2.4.4.1, "Interaction Activities").

import type { AnswerDetail, ScoreDetail } from '../src/quiz/types';

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
} as const;

export const ACTIVITY_TYPES = {
  interaction: 'http://adlnet.gov/expapi/activities/cmi.interaction',
  assessment: 'http://adlnet.gov/expapi/activities/assessment',
} as const;

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

function answerObject(quizActivity: string, answer: AnswerDetail): XapiActivity {
  const choice = answer.kind === 'single_choice' || answer.kind === 'multiple_select';
  const definition: Record<string, unknown> = {
    type: ACTIVITY_TYPES.interaction,
    // The prompt varies with the drawn numbers; the item's id does not, so it names the activity.
    name: { en: answer.itemId },
    description: { en: answer.prompt },
    // Typed quantities ("1.5 TB") are read by the engine with a tolerance: a fill-in, no pattern.
    interactionType: choice ? 'choice' : 'fill-in',
  };
  if (choice) {
    definition.choices = answer.options.map((option) => ({ id: option.id, description: { en: option.text } }));
    definition.correctResponsesPattern = [answer.correctOptions.join('[,]')];
  }
  return { objectType: 'Activity', id: itemActivityId(quizActivity, answer.itemId), definition };
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
    statements.push({
      id: newId(),
      timestamp,
      verb: VERBS.answered,
      object: answerObject(quiz, answer),
      result: {
        success: answer.correct,
        response: answer.response,
        score: { scaled: answer.credit, raw: answer.credit, min: 0, max: 1 },
      },
      context: { contextActivities: { parent: [{ objectType: 'Activity', id: quiz }] } },
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
  root.addEventListener('trainscope-answer', onAnswer);
  root.addEventListener('trainscope-score', onScore);
  return () => {
    root.removeEventListener('trainscope-answer', onAnswer);
    root.removeEventListener('trainscope-score', onScore);
  };
}
