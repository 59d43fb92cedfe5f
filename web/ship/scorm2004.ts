// SCORM 2004 4th Edition run-time: finds the LMS's API_1484_11, reports the quiz score, completion
// and success, and keeps the quiz's progress in cmi.suspend_data. Without an LMS every call is a
// quiet no-op. Reference: ADL SCORM 2004 4th Edition Run-Time Environment (RTE) 1.1, §3.1 (API),
// §4.2 (data model: cmi.completion_status 4.2.4, cmi.location 4.2.14, cmi.scaled_passing_score
// 4.2.20, cmi.score 4.2.21, cmi.session_time 4.2.23, cmi.success_status 4.2.24, cmi.suspend_data 4.2.25).
import { type QuizScore, ScoSession } from './sco';
import { findLmsApi } from './scorm';

/** The SCORM 2004 API an LMS puts on a parent window as `window.API_1484_11`. */
export interface Scorm2004Api {
  Initialize(parameter: ''): string;
  Terminate(parameter: ''): string;
  GetValue(element: string): string;
  SetValue(element: string, value: string): string;
  Commit(parameter: ''): string;
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

/** Elapsed time as an ISO 8601 duration, SCORM 2004's timeinterval (second,10,2) (RTE 4.1.1.6). */
export function formatDuration(milliseconds: number): string {
  const centiseconds = Math.max(0, Math.round(milliseconds / 10));
  const hours = Math.floor(centiseconds / 360000);
  const minutes = Math.floor((centiseconds % 360000) / 6000);
  const seconds = (centiseconds % 6000) / 100;
  return `PT${hours > 0 ? `${hours}H` : ''}${minutes > 0 ? `${minutes}M` : ''}${Number(seconds.toFixed(2))}S`;
}

/**
 * One SCO session in a SCORM 2004 LMS. `start()` initialises, `report()` records a score after
 * an answer (one Commit), `finish()` ends the session on pagehide.
 */
export class Scorm2004Session extends ScoSession {
  private readonly api: Scorm2004Api | null;
  private passingScore: number | null = null;
  private completion = '';
  private success = '';
  /** The best cmi.score.scaled this attempt holds (earlier sessions' or this one's); null before any. */
  private bestScaled: number | null = null;
  private location = '';

  constructor(api: Scorm2004Api | null, now: () => number = () => Date.now()) {
    super(SUSPEND_DATA_LIMIT_2004, now);
    this.api = api;
  }

  protected get hasLms(): boolean {
    return this.api !== null;
  }
  protected lmsInitialize(): boolean {
    return this.api?.Initialize('') === 'true';
  }
  protected lmsTerminate(): void {
    this.api?.Terminate('');
  }
  protected lmsGetValue(element: string): string {
    return this.api?.GetValue(element) ?? '';
  }
  protected lmsSetValue(element: string, value: string): boolean {
    return this.api?.SetValue(element, value) === 'true';
  }
  protected lmsCommit(): void {
    this.api?.Commit('');
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
   * Reports the quiz after an answer, with one Commit. Nothing steps back (docs/embedding.md,
   * "SCORM 2004"): cmi.score is the best of the attempt, completion climbs incomplete → completed,
   * success unknown → failed → passed, and a pass is kept when a retake scores lower. SCORM 2004
   * lets the LMS judge success_status from score.scaled against scaled_passing_score (RTE
   * 4.2.24); since score.scaled is the best, the LMS's judgement agrees with ours.
   */
  report(score: QuizScore, itemId?: string): void {
    if (!this.connected) return;
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
    this.commit();
  }

  protected closing(elapsedMilliseconds: number): void {
    this.set('cmi.session_time', formatDuration(elapsedMilliseconds));
    // Always suspend: a normal exit ends the attempt, and the LMS would start the next launch as
    // a new attempt with empty data, taking back the learner's answers and results (RTE 4.2.10).
    this.set('cmi.exit', 'suspend');
  }
}
