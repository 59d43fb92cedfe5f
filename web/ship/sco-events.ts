// What a SCORM session hears from the widget: each answer (trainscope-answer), the score after it
// (trainscope-score, with the takeaways' progress when the quiz gives it) and a takeaway becoming
// mastered (trainscope-mastery). The answer event comes right before its score event; the session
// records all three with one commit (web/ship/scorm.ts, scorm2004.ts).
import type { AnswerDetail, ScoreDetail } from '../src/quiz/types';
import type { QuizScore } from './sco';
import { takeawayStates, type TakeawayState } from './report';

export interface ReportingSession {
  report(score: QuizScore, answer: AnswerDetail | null, takeaways: readonly TakeawayState[]): void;
  reportTakeaways(takeaways: readonly TakeawayState[], language: string): void;
}

/** Sends the quiz's answers, scores and masteries heard on `target` to `session`; returns how to stop. */
export function reportQuiz(target: HTMLElement, session: ReportingSession): () => void {
  const answers: AnswerDetail[] = [];
  let pending: AnswerDetail | null = null;
  let language = 'en';
  const onAnswer = (event: Event) => {
    pending = (event as CustomEvent<AnswerDetail>).detail ?? null;
    if (!pending) return;
    answers.push(pending);
    if (pending.language) language = pending.language;
  };
  const onScore = (event: Event) => {
    const detail = (event as CustomEvent<ScoreDetail>).detail;
    const answer = pending;
    pending = null;
    if (detail) session.report(detail, answer, takeawayStates(detail, answers));
  };
  const onMastery = (event: Event) => {
    const takeaway = (event as CustomEvent<{ takeaway?: unknown }>).detail?.takeaway;
    if (!takeaway) return;
    const states = takeawayStates({ takeaways: [takeaway] } as unknown as ScoreDetail, []);
    if (states.length > 0) session.reportTakeaways(states, language);
  };
  target.addEventListener('trainscope-answer', onAnswer);
  target.addEventListener('trainscope-score', onScore);
  target.addEventListener('trainscope-mastery', onMastery);
  return () => {
    target.removeEventListener('trainscope-answer', onAnswer);
    target.removeEventListener('trainscope-score', onScore);
    target.removeEventListener('trainscope-mastery', onMastery);
  };
}
