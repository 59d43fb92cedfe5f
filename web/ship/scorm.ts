// SCORM 1.2 run-time: finds the LMS's API object, reports the quiz score and status, each answer
// (cmi.interactions) and each takeaway (cmi.objectives), and keeps the quiz's progress in
// cmi.suspend_data. Without an LMS every call is a quiet no-op, so the same page runs as a plain
// page. Reference: ADL SCORM 1.2 Run-Time Environment, §3.2 (API discovery) and §3.4 (the cmi
// data model: cmi.core, cmi.objectives, cmi.interactions, cmi.student_preference).

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
  SCORM12_TEXT,
  shortHash,
  takeawayScaled,
  timeOfDay,
  type TakeawayState,
} from './report';
import { type LmsApi, type QuizScore, ScoSession } from './sco';

/** The SCORM 1.2 API an LMS puts on a parent window as `window.API`. */
export interface Scorm12Api {
  LMSInitialize(parameter: ''): string;
  LMSFinish(parameter: ''): string;
  LMSGetValue(element: string): string;
  LMSSetValue(element: string, value: string): string;
  LMSCommit(parameter: ''): string;
  LMSGetLastError(): string;
  LMSGetErrorString(code: string): string;
  LMSGetDiagnostic(code: string): string;
}

/** SCORM 1.2 caps cmi.suspend_data at 4,096 characters (RTE §3.4.2). */
export const SUSPEND_DATA_LIMIT = 4096;
/** How far up the frame tree to look: the RTE's reference algorithm stops at 500 (§3.2.1). */
const MAX_PARENT_HOPS = 500;

/** A property of `candidate` that looks like an LMS's API (has `method`), or null. */
function apiOf<T>(candidate: Window, name: string, method: string): T | null {
  try {
    const api = (candidate as unknown as Record<string, unknown>)[name];
    if (api && typeof (api as Record<string, unknown>)[method] === 'function') return api as T;
  } catch {
    // A cross-origin frame: reading its properties throws. It is not our LMS.
  }
  return null;
}

/**
 * Walks window.parent up to the top, then the opener's chain, looking for `window[name]`: the
 * discovery algorithm of SCORM 1.2 (RTE §3.2.1, `API`) and of SCORM 2004 (RTE §3.1.5, `API_1484_11`).
 */
export function findLmsApi<T>(start: Window, name: string, method: string): T | null {
  const searchUp = (from: Window): T | null => {
    let current: Window = from;
    for (let hops = 0; hops <= MAX_PARENT_HOPS; hops += 1) {
      const api = apiOf<T>(current, name, method);
      if (api) return api;
      let parent: Window | null = null;
      try {
        parent = current.parent;
      } catch {
        return null;
      }
      if (!parent || parent === current) return null;
      current = parent;
    }
    return null;
  };
  const found = searchUp(start);
  if (found) return found;
  try {
    const opener = start.top?.opener as Window | null | undefined;
    if (opener) return searchUp(opener);
  } catch {
    // A cross-origin opener.
  }
  return null;
}

/** SCORM 1.2's API in the names a session calls (SCORM 2004's): the same calls, LMS-prefixed, with Finish for Terminate. */
function asLmsApi(api: Scorm12Api): LmsApi {
  return {
    Initialize: () => api.LMSInitialize(''),
    Terminate: () => api.LMSFinish(''),
    GetValue: (element) => api.LMSGetValue(element),
    SetValue: (element, value) => api.LMSSetValue(element, value),
    Commit: () => api.LMSCommit(''),
  };
}

/** The SCORM 1.2 API (`window.API`) of the LMS this page runs in, or null. */
export function findScormApi(start: Window): Scorm12Api | null {
  return findLmsApi<Scorm12Api>(start, 'API', 'LMSInitialize');
}

/**
 * How far a lesson_status is along: a report may only move it up. failed sits below completed
 * and passed (a learner who failed may still pass later; one who passed keeps it), and a status
 * this SCO does not know (an LMS's own) is treated as finished: left alone.
 */
function statusRank(status: string): number {
  switch (status) {
    case '':
    case 'not attempted':
      return 0;
    case 'incomplete':
    case 'browsed':
      return 1;
    case 'failed':
      return 2;
    case 'completed':
      return 3;
    case 'passed':
      return 4;
    default:
      return 5;
  }
}

export type { QuizScore } from './sco';

/**
 * Which question each interaction is, kept in the session's part of cmi.suspend_data: SCORM 1.2's
 * interactions are write-only (RTE §3.4.4), so a later launch could not find a question's record
 * by its id. "i:" then, per interaction index, a 5-letter hash of its id ("-----": not ours).
 */
const MAP_PREFIX = 'i:';
const MAP_WIDTH = 5;
const NOT_OURS = '-'.repeat(MAP_WIDTH);

/** The interaction map read from cmi.suspend_data: index → hash; anything else reads as no map. */
export function readInteractionMap(own: string): string[] {
  if (!own.startsWith(MAP_PREFIX)) return [];
  const body = own.slice(MAP_PREFIX.length);
  if (body.length % MAP_WIDTH !== 0 || !/^[0-9a-z-]*$/.test(body)) return [];
  const map: string[] = [];
  for (let at = 0; at < body.length; at += MAP_WIDTH) map.push(body.slice(at, at + MAP_WIDTH));
  return map;
}

export function writeInteractionMap(map: readonly string[]): string {
  return map.length === 0 ? '' : `${MAP_PREFIX}${map.join('')}`;
}

/** SCORM 1.2's objective status for a takeaway: mastered is passed; started, incomplete (RTE §3.4.4, cmi.objectives.n.status). */
function objectiveStatus(state: TakeawayState): string {
  if (state.mastery === 'mastered') return 'passed';
  return state.mastery === 'practising' || state.firstTryCorrect > 0 ? 'incomplete' : 'not attempted';
}

/** Formats elapsed time as SCORM 1.2's CMITimespan, HHHH:MM:SS.SS (RTE §3.4.3). */
export function formatTimespan(milliseconds: number): string {
  const totalCentiseconds = Math.max(0, Math.round(milliseconds / 10));
  const hours = Math.min(9999, Math.floor(totalCentiseconds / 360000));
  const minutes = Math.floor((totalCentiseconds % 360000) / 6000);
  const seconds = (totalCentiseconds % 6000) / 100;
  const pad = (value: number, width: number) => String(value).padStart(width, '0');
  return `${pad(hours, 4)}:${pad(minutes, 2)}:${seconds.toFixed(2).padStart(5, '0')}`;
}

/**
 * One SCO session. Create it once per page; `start()` initialises the LMS connection,
 * `report()` records a score, `finish()` ends the session (call on pagehide).
 */
export class ScormSession extends ScoSession {
  private masteryScore: number | null = null;
  private lastStatus = '';
  /** The best raw score the LMS holds (from earlier sessions or this one); null before any. */
  private bestRaw: number | null = null;
  /** Whether the quiz, as last reported in this session, has every question answered. */
  private quizCompleted = false;
  /** Per interaction index, the hash of the question it records (see readInteractionMap). */
  private interactionMap: string[] = [];
  /** The interactions the LMS holds (cmi.interactions._count). */
  private interactionCount = 0;
  /** The objectives the LMS holds, by id: their index, status and raw score as last known. */
  private objectives = new Map<string, { index: number; status: string; raw: number | null }>();
  private objectiveCount = 0;
  private preference = '';

  constructor(api: Scorm12Api | null, now: () => number = () => Date.now()) {
    super(api ? asLmsApi(api) : null, SUSPEND_DATA_LIMIT, now);
  }

  protected opened(): void {
    const status = this.lmsGetValue('cmi.core.lesson_status');
    this.lastStatus = status;
    if (status === '' || status === 'not attempted') {
      this.set('cmi.core.lesson_status', 'incomplete');
      this.lastStatus = 'incomplete';
    }
    const raw = Number.parseFloat(this.lmsGetValue('cmi.core.score.raw'));
    this.bestRaw = Number.isFinite(raw) && raw >= 0 && raw <= 100 ? raw : null;
    // The LMS may carry the manifest's adlcp:masteryscore (RTE §3.4.4: cmi.student_data.mastery_score).
    const mastery = Number.parseFloat(this.lmsGetValue('cmi.student_data.mastery_score'));
    this.masteryScore = Number.isFinite(mastery) && mastery >= 0 && mastery <= 100 ? mastery : null;
    this.preference = this.get('cmi.student_preference.language');
    this.interactionCount = this.count('cmi.interactions._count');
    this.objectiveCount = this.count('cmi.objectives._count');
    for (let index = 0; index < Math.min(this.objectiveCount, MAX_OBJECTIVES); index += 1) {
      const id = this.get(`cmi.objectives.${index}.id`);
      const raw = Number.parseFloat(this.get(`cmi.objectives.${index}.score.raw`));
      if (id)
        this.objectives.set(id, { index, status: this.get(`cmi.objectives.${index}.status`), raw: Number.isFinite(raw) ? raw : null });
    }
  }

  protected resumed(own: string): void {
    // Entries past the LMS's count name records the LMS does not hold (it dropped them): forgotten.
    this.interactionMap = readInteractionMap(own).slice(0, this.interactionCount);
  }

  /** The language the LMS asks for (cmi.student_preference.language), when the widget has it; else null. */
  preferredLanguage(): Language | null {
    return lmsLanguage(this.preference);
  }

  /** The pass mark the LMS asks for, as a fraction (0..1), or null. */
  passMark(): number | null {
    return this.masteryScore === null ? null : this.masteryScore / 100;
  }

  /**
   * The LMS record only moves forward (docs/quiz.md, "In an LMS"): the status climbs incomplete →
   * failed → completed → passed and never goes back, and score.raw is the best this learner has had.
   */
  protected reportScore(score: QuizScore): void {
    const raw = score.max > 0 ? Math.round((score.score / score.max) * 100) : 0;
    if (this.bestRaw === null || raw > this.bestRaw) {
      this.set('cmi.core.score.min', '0');
      this.set('cmi.core.score.max', '100');
      this.set('cmi.core.score.raw', String(raw));
      this.bestRaw = raw;
    }
    this.quizCompleted = score.completed;
    let status = 'incomplete';
    if (score.completed) {
      // With a pass mark (ours or the LMS's), passed/failed; without one, completed (RTE §3.4.4).
      status = score.passed === null ? 'completed' : score.passed ? 'passed' : 'failed';
    }
    if (statusRank(status) > statusRank(this.lastStatus)) {
      this.set('cmi.core.lesson_status', status);
      this.lastStatus = status;
    }
  }

  /**
   * One interaction per question, holding its latest graded answer (RTE §3.4.4, cmi.interactions):
   * a re-answer, in this launch or a later one, rewrites the question's own record.
   */
  protected recordAnswer(answer: AnswerDetail): void {
    const id = lmsId(answer.itemId);
    // The question's own record from this or an earlier launch, else the next free one (none past the cap).
    const hash = shortHash(id, MAP_WIDTH);
    let index = this.interactionMap.indexOf(hash);
    const added = index < 0;
    if (added) {
      if (this.interactionCount >= MAX_INTERACTIONS) return;
      index = this.interactionCount;
    }
    const at = `cmi.interactions.${index}.`;
    // An LMS that refuses the record (one without interactions) gets no more of it.
    if (!this.set(`${at}id`, id)) return;
    if (added) {
      while (this.interactionMap.length < index) this.interactionMap.push(NOT_OURS);
      this.interactionMap[index] = hash;
      this.interactionCount += 1;
      this.saveOwnState(writeInteractionMap(this.interactionMap));
    }
    const type = interactionType(answer);
    const choice = type === 'choice';
    const ids = (list: string[]) => clip(list.map((option) => lmsId(option)).join(','), SCORM12_TEXT);
    if (answer.takeaway) this.set(`${at}objectives.0.id`, lmsId(answer.takeaway));
    this.set(`${at}time`, timeOfDay(new Date(this.now())));
    this.set(`${at}type`, type);
    const pattern = choice ? ids(answer.correctOptions) : clip(oneLine(answer.expected ?? ''), SCORM12_TEXT);
    if (pattern) this.set(`${at}correct_responses.0.pattern`, pattern);
    this.set(`${at}weighting`, '1');
    this.set(`${at}student_response`, choice ? ids(chosenOptions(answer)) : clip(oneLine(answer.response), SCORM12_TEXT));
    this.set(`${at}result`, answer.correct ? 'correct' : 'wrong');
    if (Number.isFinite(answer.latency)) this.set(`${at}latency`, formatTimespan(answer.latency));
  }

  /** One objective per takeaway (RTE §3.4.4, cmi.objectives): status and score only climb, like the lesson's. */
  protected recordTakeaways(takeaways: readonly TakeawayState[]): void {
    for (const takeaway of takeaways) {
      const id = lmsId(takeaway.id);
      let known = this.objectives.get(id);
      if (!known) {
        if (this.objectiveCount >= MAX_OBJECTIVES) continue;
        known = { index: this.objectiveCount, status: '', raw: null };
        if (!this.set(`cmi.objectives.${known.index}.id`, id)) continue;
        this.objectiveCount += 1;
        this.objectives.set(id, known);
      }
      const status = objectiveStatus(takeaway);
      if (statusRank(status) > statusRank(known.status) || known.status === '') {
        if (this.set(`cmi.objectives.${known.index}.status`, status)) known.status = status;
      }
      if (takeaway.items === 0 || status === 'not attempted') continue;
      const raw = Math.round(takeawayScaled(takeaway) * 100);
      if (known.raw === null || raw > known.raw) {
        this.set(`cmi.objectives.${known.index}.score.min`, '0');
        this.set(`cmi.objectives.${known.index}.score.max`, '100');
        if (this.set(`cmi.objectives.${known.index}.score.raw`, String(raw))) known.raw = raw;
      }
    }
  }

  protected closing(elapsedMilliseconds: number): void {
    this.set('cmi.core.session_time', formatTimespan(elapsedMilliseconds));
    // An unfinished quiz is suspended, so that the LMS resumes it (with cmi.suspend_data) rather
    // than start a new attempt; that holds for a retake after a pass, too (RTE §3.4.4, cmi.core.exit).
    this.set('cmi.core.exit', this.quizCompleted ? '' : 'suspend');
  }
}
