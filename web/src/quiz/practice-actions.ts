// What the learner does in a practice run (docs/quiz.md, "Practice"), carried out: start one for a
// takeaway, answer, see the solution, try again, go on to the next question, leave. Practice
// answers change the takeaway's mastery, never the scored questions, unless the author asks
// (`practiceCounts`): then a right practice answer to a scored question that is not yet right
// counts as a later try would (½ point; nothing once its solution was shown).

import { asPractice, PRACTICE_PREFIX, type PreparedItem } from './bank';
import { askPractice, changePractice, nextPracticeItem, noteAnswer, noteShown } from './practice';
import { readAnswer, renderItem, showInputError } from './item-view';
import type { QuizSession } from './session';
import { missedIds, nextSeed, recordAnswer, revealSolution, retryItem } from './state';
import { renderChrome } from './summary';
import type { Answer } from './types';

/** The practice question on screen, as the views draw it; null outside a run. */
export function practiceItem(session: QuizSession): PreparedItem | null {
  const run = session.progress.practice;
  const item = run ? session.bank.items.find((entry) => entry.id === run.itemId) : undefined;
  return item ? asPractice(item) : null;
}

/** Draws the practice question again (a new question, an answer, a retry) in the practice box. */
export function drawPracticeItem(session: QuizSession): HTMLLIElement | null {
  const item = practiceItem(session);
  const list = session.frame.practiceSection.querySelector('.ts-quiz-practice-items');
  if (!item || !list) return null;
  const li = renderItem(session, item);
  for (const old of Array.from(list.children)) {
    session.itemElements.delete((old as HTMLElement).dataset.itemId ?? '');
    old.remove();
  }
  session.itemElements.set(item.id, li);
  list.append(li);
  return li;
}

function ask(session: QuizSession, takeaway: string, slip: string | null, previousId: string | null, asked: number, missed?: string): void {
  // The set asked's questions before the others, so a lesson's practice starts with the lesson's.
  const first = session.bank.items.filter((item) => item.set === session.graded[0]?.set);
  const pool = [...first, ...session.bank.items.filter((item) => !first.includes(item))];
  const itemId = missed ?? nextPracticeItem(pool, takeaway, slip, previousId, asked);
  if (itemId === null) return;
  const seed = nextSeed(session.progress.practice?.item.seed ?? 0, session.random);
  session.progress = askPractice(session.progress, { takeaway, asked, slip }, itemId, seed);
  session.views.delete(PRACTICE_PREFIX + itemId);
  session.persist();
  // Drawn anew even when the same question comes again (a takeaway with one question).
  drawPracticeItem(session);
  renderChrome(session);
  session.legendOf(PRACTICE_PREFIX + itemId)?.focus();
}

/**
 * Starts a run of `takeaway`. From a wrong answer (`fromItemId`), the first question aims at its
 * slip; from the summary, it is the first question of the takeaway the learner missed, with new
 * numbers, else the takeaway's first in practice order.
 */
export function practise(session: QuizSession, takeaway: string, slip: string | null, fromItemId: string | null): void {
  const missed =
    fromItemId === null
      ? missedIds(session.progress, session.graded).find(
          (id) => session.progress.items[id] && session.graded.some((item) => item.id === id && item.takeaway === takeaway),
        )
      : undefined;
  ask(session, takeaway, slip, fromItemId, 0, missed);
  const title = session.bank.takeaways.find((entry) => entry.id === takeaway)?.text ?? takeaway;
  session.announce(session.t('quizui.practice.started', 'Practice: {takeaway}', { takeaway: title }));
}

export function nextPractice(session: QuizSession): void {
  const run = session.progress.practice;
  if (run) ask(session, run.takeaway, run.slip, run.itemId, run.asked);
}

/** Back where the learner came from: the results once every question is answered, else the question they were on. */
export function endPractice(session: QuizSession): void {
  const toResults = session.shownScore().completed || session.progress.current === null;
  session.progress = { ...session.progress, practice: null, current: toResults ? null : session.progress.current };
  session.persist();
  renderChrome(session);
  if (toResults) session.frame.summarySection.querySelector<HTMLElement>('.ts-quiz-summary-title')?.focus();
  else if (session.progress.current) session.legendOf(session.progress.current)?.focus();
}

/** With the author's `practiceCounts`, a right practice answer to a scored question not yet right counts as a later try. */
function countTowardsScore(session: QuizSession, itemId: string, answer: Answer, clean: boolean): void {
  if (!session.options.practiceCounts || !clean) return;
  const scored = session.graded.find((item) => item.id === itemId);
  const state = scored ? session.progress.items[scored.id] : undefined;
  if (!scored || !state || state.status === 'correct' || state.attempts === 0) return;
  session.progress = recordAnswer(session.progress, scored.id, answer, true);
  session.views.delete(scored.id);
  session.actions.replaceItem(scored);
}

export function practiceCheck(session: QuizSession, item: PreparedItem): void {
  const { t } = session;
  const li = session.itemElements.get(item.id);
  const run = session.progress.practice;
  if (!li || !run) return;
  const answer = readAnswer(item, li);
  const result = session.grade(item, answer);
  if (!result || !result.counts_as_attempt || (result.status !== 'correct' && result.status !== 'incorrect')) {
    showInputError(session, li, result?.message || t('quizui.error.no_answer', 'Please give an answer first.'));
    return;
  }
  const correct = result.status === 'correct';
  const clean = !run.item.solutionSeen;
  session.progress = changePractice(
    session.progress,
    (progress, id) => recordAnswer(progress, id, answer, correct),
    result.misconception ?? null,
  );
  const noted = noteAnswer(session.progress, session.bankItemOf(item).takeaway, correct, clean);
  session.progress = noted.progress;
  if (correct) countTowardsScore(session, run.itemId, answer, clean);
  session.viewOf(item).grade = result;
  settlePractice(
    session,
    item,
    correct
      ? t('quizui.announce.correct', 'Correct. {message}', { message: result.message })
      : t('quizui.announce.incorrect', 'Not quite. {message}', { message: result.message }),
    noted.mastered,
  );
  if (noted.mastered) session.emitMastery(session.bankItemOf(item).takeaway);
}

/** After a practice answer or solution: save, redraw, say it (with mastery when it came), tell the host the score and mastery. */
function settlePractice(session: QuizSession, item: PreparedItem, message: string, mastered: boolean): void {
  session.persist();
  const li = drawPracticeItem(session);
  renderChrome(session);
  li?.querySelector<HTMLElement>('.ts-quiz-feedback')?.focus();
  const takeaway = session.bankItemOf(item).takeaway;
  const title = session.bank.takeaways.find((entry) => entry.id === takeaway)?.text ?? takeaway;
  session.announce(
    mastered ? session.t('quizui.practice.mastered_announce', '{message} Mastered: {takeaway}', { message, takeaway: title }) : message,
  );
  session.emitScore();
}

export function practiceReveal(session: QuizSession, item: PreparedItem): void {
  const view = session.viewOf(item);
  const wasNew = session.stateOf(item).status === 'new';
  session.progress = changePractice(session.progress, (progress, id) => revealSolution(progress, id));
  session.progress = noteShown(session.progress, session.bankItemOf(item).takeaway);
  if (!view.grade || wasNew) view.grade = session.grade(item, {});
  settlePractice(session, item, session.t('quizui.announce.solution', 'Here is the solution.'), false);
}

export function practiceRetry(session: QuizSession, item: PreparedItem): void {
  const seed = nextSeed(session.stateOf(item).seed, session.random);
  session.progress = changePractice(session.progress, (progress, id) => retryItem(progress, id, seed));
  session.views.delete(item.id);
  session.persist();
  const li = drawPracticeItem(session);
  renderChrome(session);
  li?.querySelector<HTMLElement>('.ts-quiz-legend')?.focus();
}
