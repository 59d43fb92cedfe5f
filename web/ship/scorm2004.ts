// SCORM 2004 4th Edition run-time: finds the LMS's API_1484_11, reports the quiz score, completion
// and success, and keeps the quiz's progress in cmi.suspend_data. Without an LMS every call is a
// quiet no-op. Reference: ADL SCORM 2004 4th Edition Run-Time Environment (RTE) 1.1, §3.1 (API),
// §4.2 (data model: cmi.completion_status 4.2.4, cmi.location 4.2.14, cmi.scaled_passing_score
// 4.2.20, cmi.score 4.2.21, cmi.session_time 4.2.23, cmi.success_status 4.2.24, cmi.suspend_data 4.2.25),
// and what a course sees of each answer and takeaway (cmi.interactions 4.2.9, cmi.objectives 4.2.18,
// cmi.learner_preference.language 4.2.12).
import type { Language } from '../src/i18n/i18n';
import type { AnswerDetail } from '../src/quiz/types';
import {
  chosenOptions,
  clip,
  interactionType,
  lmsId,
  lmsLanguage,
  MAX_INTERACTIONS,
  MAX_OBJECTIVES,
  oneLine,
  SCORM2004_TEXT,
  takeawayScaled,
  timestamp2004,
  formatDuration,
  type TakeawayState,
} from './report';

export { formatDuration } from './report';
import { type LmsApi, type QuizScore, ScoSession } from './sco';
import { findLmsApi } from './scorm';

/** The SCORM 2004 API an LMS puts on a parent window as `window.API_1484_11`. */
export interface Scorm2004Api extends LmsApi {
  GetLastError(): string;
  GetErrorString(code: string): string;
  GetDiagnostic(code: string): string;
}

/** SCORM 2004 4th Edition's smallest permitted maximum for cmi.suspend_data: 64,000 characters (RTE 4.2.25). */
export const SUSPEND_DATA_LIMIT_2004 = 64000;

export function findScorm2004Api(start: Window): Scorm2004Api | null {
  return findLmsApi<Scorm2004Api>(start, 'API_1484_11', 'Initialize');
}

/** How far a completion_status is along; a report only moves it up (completed stays completed). */
function completionRank(status: string): number {
  if (status === 'completed') return 2;
  if (status === 'incomplete') return 1;
  return 0; // 'unknown', 'not attempted', ''
}

/** How far a success_status is along: unknown < failed < passed; a pass is never taken back. */
function successRank(status: string): number {
  if (status === 'passed') return 2;
  if (status === 'failed') return 1;
  return 0;
}

/**
 * A localized string (RTE 4.1.1.7): `{lang=de}` and at most 250 characters on one line, not
 * starting with "{" (it would read as a delimiter) and without "[,]" (it separates responses).
 */
export function localized(text: string, language: string): string {
  const clean = oneLine(text).replace(/\[,\]/g, ', ').replace(/^\{+/, '');
  return `{lang=${language}}${clip(clean, SCORM2004_TEXT)}`;
}

/** A takeaway's objective in SCORM 2004's words (RTE 4.2.18): mastery is success and completion. */
function objectiveValues(state: TakeawayState): Record<string, string> {
  const values: Record<string, string> = {
    success_status: state.mastery === 'mastered' ? 'passed' : 'unknown',
    completion_status: state.mastery === 'mastered' ? 'completed' : state.mastery === 'practising' ? 'incomplete' : 'not attempted',
    progress_measure: state.mastery === 'mastered' ? '1' : state.mastery === 'practising' ? '0.5' : '0',
  };
  if (state.items > 0 && state.mastery !== 'not-started') {
    const scaled = takeawayScaled(state);
    Object.assign(values, {
      'score.scaled': String(scaled),
      'score.raw': String(Math.round(scaled * 100)),
      'score.min': '0',
      'score.max': '100',
    });
  }
  return values;
}

/** How far an objective's value is along, for the ones that only climb. */
function objectiveRank(element: string, value: string): number {
  if (element === 'success_status') return successRank(value);
  if (element === 'completion_status') return value === 'completed' ? 2 : value === 'incomplete' ? 1 : 0;
  const number = Number.parseFloat(value);
  return Number.isFinite(number) ? number : -Infinity;
}

/**
 * One SCO session in a SCORM 2004 LMS. `start()` initialises, `report()` records a score after
 * an answer (one Commit), `finish()` ends the session on pagehide.
 */
export class Scorm2004Session extends ScoSession {
  private passingScore: number | null = null;
  private completion = '';
  private success = '';
  /** The best cmi.score.scaled this attempt holds (earlier sessions' or this one's); null before any. */
  private bestScaled: number | null = null;
  private location = '';
  private preference = '';
  /** Interactions and objectives the LMS holds, by id: their index (both are readable in SCORM 2004). */
  private interactions = new Map<string, number>();
  private interactionCount = 0;
  private objectives = new Map<string, { index: number; values: Record<string, string> }>();
  private objectiveCount = 0;

  constructor(api: Scorm2004Api | null, now: () => number = () => Date.now()) {
    super(api ?? null, SUSPEND_DATA_LIMIT_2004, now);
  }

  protected opened(): void {
    this.completion = this.lmsGetValue('cmi.completion_status');
    this.success = this.lmsGetValue('cmi.success_status');
    if (completionRank(this.completion) === 0) {
      this.set('cmi.completion_status', 'incomplete');
      this.completion = 'incomplete';
    }
    const scaled = Number.parseFloat(this.lmsGetValue('cmi.score.scaled'));
    this.bestScaled = Number.isFinite(scaled) && scaled >= -1 && scaled <= 1 ? scaled : null;
    // The manifest's imsss:minNormalizedMeasure, when the item's primary objective is satisfied by measure.
    const passing = Number.parseFloat(this.lmsGetValue('cmi.scaled_passing_score'));
    this.passingScore = Number.isFinite(passing) && passing >= 0 && passing <= 1 ? passing : null;
    this.location = this.lmsGetValue('cmi.location') ?? '';
    this.preference = this.get('cmi.learner_preference.language');
    this.interactionCount = this.count('cmi.interactions._count');
    for (let index = 0; index < Math.min(this.interactionCount, MAX_INTERACTIONS); index += 1) {
      const id = this.get(`cmi.interactions.${index}.id`);
      if (id && !this.interactions.has(id)) this.interactions.set(id, index);
    }
    this.objectiveCount = this.count('cmi.objectives._count');
    for (let index = 0; index < Math.min(this.objectiveCount, MAX_OBJECTIVES); index += 1) {
      const id = this.get(`cmi.objectives.${index}.id`);
      if (!id || this.objectives.has(id)) continue;
      const values: Record<string, string> = {};
      for (const element of ['success_status', 'completion_status', 'progress_measure', 'score.scaled']) {
        values[element] = this.get(`cmi.objectives.${index}.${element}`);
      }
      this.objectives.set(id, { index, values });
    }
  }

  /** The language the LMS asks for (cmi.learner_preference.language), when the widget has it; else null. */
  preferredLanguage(): Language | null {
    return lmsLanguage(this.preference);
  }

  /** The pass mark the LMS asks for (0..1), or null. */
  passMark(): number | null {
    return this.passingScore;
  }

  /** Where the learner was (the last question answered), '' when none. */
  lastLocation(): string {
    return this.location;
  }

  /**
   * Nothing steps back (docs/embedding.md, "SCORM 2004"): cmi.score is the best of the attempt,
   * completion climbs incomplete → completed, success unknown → failed → passed, and a pass is kept
   * when a retake scores lower. SCORM 2004 lets the LMS judge success_status from score.scaled
   * against scaled_passing_score (RTE 4.2.24); since score.scaled is the best, the LMS's judgement
   * agrees with ours. cmi.location keeps the question just answered.
   */
  protected reportScore(score: QuizScore, answer: AnswerDetail | null): void {
    const itemId = answer?.itemId;
    const scaled = Math.round(score.scaled * 10000) / 10000;
    if (this.bestScaled === null || scaled > this.bestScaled) {
      this.set('cmi.score.scaled', String(scaled));
      this.set('cmi.score.min', '0');
      this.set('cmi.score.max', '100');
      this.set('cmi.score.raw', String(Math.round(scaled * 100)));
      this.bestScaled = scaled;
    }
    const completion = score.completed ? 'completed' : 'incomplete';
    if (completionRank(completion) > completionRank(this.completion)) {
      this.set('cmi.completion_status', completion);
      this.completion = completion;
    }
    const success = score.passed === null ? '' : score.passed ? 'passed' : 'failed';
    if (successRank(success) > successRank(this.success)) {
      this.set('cmi.success_status', success);
      this.success = success;
    }
    if (itemId && itemId !== this.location && itemId.length <= 1000) {
      if (this.set('cmi.location', itemId)) this.location = itemId;
    }
  }

  /**
   * One interaction per question with its latest graded answer (RTE 4.2.9): found again by its id,
   * in this launch or a later one, and rewritten; a new question takes the next index (up to 250).
   */
  protected recordAnswer(answer: AnswerDetail): void {
    const id = lmsId(answer.itemId);
    let index = this.interactions.get(id);
    if (index === undefined) {
      if (this.interactionCount >= MAX_INTERACTIONS) return;
      index = this.interactionCount;
      if (!this.set(`cmi.interactions.${index}.id`, id)) return;
      this.interactionCount += 1;
      this.interactions.set(id, index);
    }
    const at = `cmi.interactions.${index}.`;
    const type = interactionType(answer);
    const language = answer.language || 'en';
    // Option ids as short_identifier_type (250 characters), joined by "[,]" (RTE 4.2.9.1, choice).
    const ids = (list: string[]) => list.map((option) => lmsId(option, SCORM2004_TEXT)).join('[,]');
    this.set(`${at}id`, id);
    this.set(`${at}type`, type);
    if (answer.takeaway) this.set(`${at}objectives.0.id`, lmsId(answer.takeaway));
    this.set(`${at}timestamp`, timestamp2004(new Date(this.now())));
    const pattern = type === 'choice' ? ids(answer.correctOptions) : answer.expected ? localized(answer.expected, language) : '';
    if (pattern) this.set(`${at}correct_responses.0.pattern`, pattern);
    const response = type === 'choice' ? ids(chosenOptions(answer)) : localized(answer.response, language);
    if (response) this.set(`${at}learner_response`, response);
    this.set(`${at}result`, answer.correct ? 'correct' : 'incorrect');
    this.set(`${at}weighting`, '1');
    if (Number.isFinite(answer.latency)) this.set(`${at}latency`, formatDuration(answer.latency));
    this.set(`${at}description`, localized(answer.prompt, language));
  }

  /** One objective per takeaway (RTE 4.2.18): its values only climb, as the lesson's do. */
  protected recordTakeaways(takeaways: readonly TakeawayState[], language: string): void {
    for (const takeaway of takeaways) {
      const id = lmsId(takeaway.id);
      let known = this.objectives.get(id);
      if (!known) {
        if (this.objectiveCount >= MAX_OBJECTIVES) continue;
        known = { index: this.objectiveCount, values: {} };
        if (!this.set(`cmi.objectives.${known.index}.id`, id)) continue;
        this.objectiveCount += 1;
        this.objectives.set(id, known);
        if (takeaway.title) this.set(`cmi.objectives.${known.index}.description`, localized(takeaway.title, language));
      }
      const values = objectiveValues(takeaway);
      for (const element of ['success_status', 'completion_status', 'progress_measure', 'score.scaled']) {
        const value = values[element];
        const before = known.values[element];
        if (value === undefined || (before !== undefined && objectiveRank(element, value) <= objectiveRank(element, before))) continue;
        if (!this.set(`cmi.objectives.${known.index}.${element}`, value)) continue;
        known.values[element] = value;
        if (element !== 'score.scaled') continue;
        for (const part of ['score.raw', 'score.min', 'score.max']) this.set(`cmi.objectives.${known.index}.${part}`, values[part]!);
      }
    }
  }

  protected closing(elapsedMilliseconds: number): void {
    this.set('cmi.session_time', formatDuration(elapsedMilliseconds));
    // Always suspend: a normal exit ends the attempt, and the LMS would start the next launch as
    // a new attempt with empty data, taking back the learner's answers and results (RTE 4.2.10).
    this.set('cmi.exit', 'suspend');
  }
}
