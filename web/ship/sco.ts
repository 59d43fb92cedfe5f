// What a SCORM 1.2 and a SCORM 2004 session have in common: one LMS connection per page, values
// set and then committed once, the quiz's progress in cmi.suspend_data (sent only when it
// changed, refused when over the standard's limit), and an end that records the session's time.
// The two standards differ in their API's method names (SCORM 1.2's are mapped onto SCORM 2004's,
// LmsApi) and in the data model (scorm.ts, scorm2004.ts), which each subclass speaks in its own
// opened, reportScore, recordAnswer, recordTakeaways and closing.

import type { Language } from '../src/i18n/i18n';
import type { AnswerDetail } from '../src/quiz/types';
import { reportable, type TakeawayState } from './report';

/** The score the quiz reports after each answer (its trainscope-score event). */
export interface QuizScore {
  score: number;
  max: number;
  scaled: number;
  passed: boolean | null;
  completed: boolean;
}

/**
 * Between the quiz's state and the session's own in cmi.suspend_data: the quiz's state is JSON
 * text, which never holds a raw new line, so the first one ends it. Data without one is the quiz's.
 */
export const SUSPEND_SEPARATOR = '\n';

/** cmi.suspend_data as [the quiz's state, the session's own]. */
export function splitSuspendData(data: string): [string, string] {
  const at = data.indexOf(SUSPEND_SEPARATOR);
  return at < 0 ? [data, ''] : [data.slice(0, at), data.slice(at + SUSPEND_SEPARATOR.length)];
}

/**
 * The calls a session makes of an LMS's API, in SCORM 2004's names (RTE §3.1.3); SCORM 1.2's
 * LMSInitialize, LMSFinish, LMSGetValue, LMSSetValue and LMSCommit are mapped onto them (scorm.ts).
 */
export interface LmsApi {
  Initialize(parameter: ''): string;
  Terminate(parameter: ''): string;
  GetValue(element: string): string;
  SetValue(element: string, value: string): string;
  Commit(parameter: ''): string;
}

export abstract class ScoSession {
  private readonly startedAt: number;
  protected readonly now: () => number;
  private active = false;
  private finished = false;
  /** Values set since the last commit. */
  private dirty = false;
  /** What cmi.suspend_data holds, so an unchanged state is not sent again. */
  private suspendData = '';
  /** The quiz's part of cmi.suspend_data, and the session's own part after it (SUSPEND_SEPARATOR). */
  private quizState = '';
  private ownState = '';

  /**
   * `api`: the LMS's, null when none was found (every call is then a quiet no-op);
   * `suspendDataLimit`: the most characters the standard lets cmi.suspend_data hold.
   */
  protected constructor(
    private readonly api: LmsApi | null,
    private readonly suspendDataLimit: number,
    now: () => number,
  ) {
    this.now = now;
    this.startedAt = now();
  }

  /** False when no LMS was found: every call is then a quiet no-op. */
  private get hasLms(): boolean {
    return this.api !== null;
  }
  private lmsInitialize(): boolean {
    return this.api?.Initialize('') === 'true';
  }
  private lmsTerminate(): void {
    this.api?.Terminate('');
  }
  protected lmsGetValue(element: string): string {
    return this.api?.GetValue(element) ?? '';
  }
  private lmsSetValue(element: string, value: string): boolean {
    return this.api?.SetValue(element, value) === 'true';
  }
  private lmsCommit(): void {
    this.api?.Commit('');
  }

  /** Reads what this standard needs from the LMS once connected (statuses, score, pass mark). */
  protected abstract opened(): void;
  /** Records the quiz's score and the statuses it moves (never back: docs/quiz.md, "In an LMS"). */
  protected abstract reportScore(score: QuizScore, answer: AnswerDetail | null): void;
  /** Records a graded answer as its question's interaction. */
  protected abstract recordAnswer(answer: AnswerDetail): void;
  /** Records each takeaway as an objective; `language`: the learner's, for the standard's text. */
  protected abstract recordTakeaways(takeaways: readonly TakeawayState[], language: string): void;
  /** Sets the session's time and exit mode before the session ends. */
  protected abstract closing(elapsedMilliseconds: number): void;
  /** The language the LMS asks for, when the widget has it; else null. */
  abstract preferredLanguage(): Language | null;
  /** The pass mark the LMS asks for, as a fraction (0..1), or null. */
  abstract passMark(): number | null;

  /** True once the LMS accepted the connection: the page is running inside an LMS. */
  get connected(): boolean {
    return this.active;
  }

  start(): boolean {
    if (!this.hasLms || this.active || this.finished) return this.active;
    this.active = this.lmsInitialize();
    if (!this.active) return false;
    this.opened();
    this.suspendData = this.lmsGetValue('cmi.suspend_data') ?? '';
    const [quiz, own] = splitSuspendData(this.suspendData);
    this.quizState = quiz;
    this.ownState = own;
    this.resumed(own);
    // The LMS learns at once that the lesson was opened.
    this.commit();
    return true;
  }

  /** Reads the saved quiz state; '' when there is none or no LMS. */
  loadSuspendData(): string {
    if (!this.active) return '';
    return splitSuspendData(this.lmsGetValue('cmi.suspend_data') ?? '')[0];
  }

  /**
   * Saves quiz state; refuses (returns false) rather than send more than the standard allows.
   * Not committed here: the answer's report() commits once for state, score and status.
   */
  saveSuspendData(state: string): boolean {
    if (!this.active || state.length > this.suspendDataLimit) return false;
    this.quizState = state;
    return this.writeSuspendData();
  }

  /**
   * Reports the quiz after an answer: its score and statuses, the answer's interaction and the
   * takeaways' objectives, with one commit at most. The LMS record only moves forward.
   */
  report(score: QuizScore, answer?: AnswerDetail | null, takeaways: readonly TakeawayState[] = []): void {
    if (!this.connected) return;
    this.reportScore(score, answer ?? null);
    if (reportable(answer)) this.recordAnswer(answer);
    this.recordTakeaways(takeaways, answer?.language ?? 'en');
    this.commit();
  }

  /** Records takeaways whose state changed (a mastery between answers), with a commit if any did. */
  reportTakeaways(takeaways: readonly TakeawayState[], language = 'en'): void {
    if (!this.connected) return;
    this.recordTakeaways(takeaways, language);
    this.commit();
  }

  /** What the session saved of its own at the last launch (SCORM 1.2: which question each interaction is). */
  protected resumed(own: string): void {
    void own;
  }

  /** Keeps the session's own part of cmi.suspend_data (no new line in it); sent with the next commit. */
  protected saveOwnState(own: string): void {
    if (!this.active || own.includes(SUSPEND_SEPARATOR) || own === this.ownState) return;
    this.ownState = own;
    this.writeSuspendData();
  }

  /** The quiz's state, then the session's own after a new line; the quiz's alone when both do not fit. */
  private writeSuspendData(): boolean {
    let data = this.ownState ? `${this.quizState}${SUSPEND_SEPARATOR}${this.ownState}` : this.quizState;
    if (data.length > this.suspendDataLimit) data = this.quizState;
    if (data.length > this.suspendDataLimit) return false;
    if (data === this.suspendData) return true;
    const saved = this.set('cmi.suspend_data', data);
    if (saved) this.suspendData = data;
    return saved;
  }

  finish(): void {
    if (!this.active || this.finished) return;
    this.closing(this.now() - this.startedAt);
    this.commit();
    this.lmsTerminate();
    this.finished = true;
    this.active = false;
  }

  /** A storage for the quiz that lives in cmi.suspend_data. */
  quizStorage(): { load(): string | null; save(state: string): void } {
    return {
      load: () => this.loadSuspendData() || null,
      save: (state: string) => {
        this.saveSuspendData(state);
      },
    };
  }

  protected set(element: string, value: string): boolean {
    if (!this.hasLms) return false;
    this.dirty = true;
    try {
      return this.lmsSetValue(element, value);
    } catch {
      // An LMS whose API throws on a value it dislikes: the value is lost, the lesson goes on.
      return false;
    }
  }

  /** An LMS value, '' when the LMS has none or its API throws. */
  protected get(element: string): string {
    try {
      return this.lmsGetValue(element) ?? '';
    } catch {
      return '';
    }
  }

  /** A count the LMS keeps (cmi.interactions._count …): a whole number ≥ 0, else 0. */
  protected count(element: string): number {
    const value = Number.parseInt(this.get(element), 10);
    return Number.isFinite(value) && value > 0 ? value : 0;
  }

  /** Commits what was set since the last commit; nothing set, nothing sent. */
  protected commit(): void {
    if (!this.dirty) return;
    this.dirty = false;
    this.lmsCommit();
  }
}
