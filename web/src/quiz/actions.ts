// What the learner does, carried out: check an answer, show a solution, try again, move between
// questions, retry the missed ones, start again. Each changes the progress (state.ts's pure
// functions), saves it, redraws what changed and tells the host.

import type { PreparedItem } from './bank';
import { noteAnswer, noteShown, resetMastery } from './practice';
import { endPractice, nextPractice, practiceCheck, practiceReveal, practiceRetry, practise } from './practice-actions';
import { readAnswer, renderItem, showInputError } from './item-view';
import type { QuizActions, QuizSession } from './session';
import { initialProgress, nextSeed, nextUnanswered, recordAnswer, retryItem, retryMissed, revealSolution, summarize } from './state';
import { renderChrome } from './summary';
import type { AnswerDetail } from './types';

/** After an answer or a solution: save, redraw, tell the host, move focus to the feedback. */
function settle(session: QuizSession, item: PreparedItem, message: string, answer: AnswerDetail): void {
  session.persist();
  const li = session.actions.replaceItem(item);
  renderChrome(session);
  li.querySelector<HTMLElement>('.ts-quiz-feedback')?.focus();
  session.announce(
    session.shownScore().completed && session.progress.mode === 'all'
      ? session.t('quizui.announce.last_question', '{message} That was the last question: your results are below.', { message })
      : message,
  );
  session.emitScore(answer);
}

function check(session: QuizSession, item: PreparedItem): void {
  if (item.practice) return practiceCheck(session, item);
  const { t } = session;
  const li = session.itemElements.get(item.id);
  if (!li) return;
  const answer = readAnswer(item, li);
  const result = session.grade(item, answer);
  if (!result) {
    showInputError(session, li, t('quizui.error.not_checked', 'This answer could not be checked just now. Please try once more.'));
    return;
  }
  if (!result.counts_as_attempt || (result.status !== 'correct' && result.status !== 'incorrect')) {
    showInputError(session, li, result.message || t('quizui.error.no_answer', 'Please give an answer first.'));
    return;
  }
  const wasCompleted = session.currentScore().completed;
  const clean = !session.stateOf(item).solutionSeen;
  session.progress = recordAnswer(session.progress, item.id, answer, result.status === 'correct');
  const noted = noteAnswer(session.progress, item.takeaway, result.status === 'correct', clean);
  session.progress = noted.progress;
  session.viewOf(item).grade = result;
  const verdict =
    result.status === 'correct'
      ? t('quizui.announce.correct', 'Correct. {message}', { message: result.message })
      : t('quizui.announce.incorrect', 'Not quite. {message}', { message: result.message });
  settle(session, item, verdict, session.describeAnswer(item, answer, wasCompleted));
  if (noted.mastered) session.emitMastery(item.takeaway);
}

function reveal(session: QuizSession, item: PreparedItem): void {
  if (item.practice) return practiceReveal(session, item);
  const view = session.viewOf(item);
  const state = session.stateOf(item);
  const wasCompleted = session.currentScore().completed;
  session.progress = noteShown(revealSolution(session.progress, item.id), item.takeaway);
  // Keep the graded answer (its choices are shown beside the solution); otherwise ask the
  // engine for the explanation alone.
  if (!view.grade || state.status === 'new') view.grade = session.grade(item, {});
  settle(session, item, session.t('quizui.announce.solution', 'Here is the solution.'), session.describeAnswer(item, null, wasCompleted));
}

function retry(session: QuizSession, item: PreparedItem): void {
  if (item.practice) return practiceRetry(session, item);
  // A new seed also for choice questions: it reshuffles their options (optionOrder).
  session.progress = retryItem(session.progress, item.id, nextSeed(session.stateOf(item).seed, session.random));
  session.views.delete(item.id);
  session.persist();
  const li = session.actions.replaceItem(item);
  renderChrome(session);
  li.querySelector<HTMLElement>('.ts-quiz-legend')?.focus();
}

function replaceItem(session: QuizSession, item: PreparedItem): HTMLLIElement {
  const old = session.itemElements.get(item.id);
  const fresh = renderItem(session, item);
  fresh.hidden = old ? old.hidden : false;
  if (old) old.replaceWith(fresh);
  session.itemElements.set(item.id, fresh);
  return fresh;
}

function show(session: QuizSession, id: string | null, focus: 'legend' | 'summary' | null): void {
  session.progress = { ...session.progress, current: id };
  session.persist();
  renderChrome(session);
  if (focus === 'legend' && id) session.legendOf(id)?.focus();
  else if (focus === 'summary') session.frame.summarySection.querySelector<HTMLElement>('.ts-quiz-summary-title')?.focus();
}

function backTo(session: QuizSession, id: string): void {
  if (session.destroyed) return;
  if (session.progress.mode === 'one' && session.progress.current !== id) show(session, id, null);
  const element = session.itemElements.get(id);
  element?.scrollIntoView({ block: 'start' });
  element?.querySelector<HTMLElement>('.ts-quiz-legend')?.focus({ preventScroll: true });
}

function missedAgain(session: QuizSession): void {
  const { t } = session;
  const missed = summarize(session.progress, session.items, session.bank.takeaways, session.passMark).missed;
  session.progress = retryMissed(session.progress, session.items, session.random);
  for (const id of missed) {
    session.views.delete(id);
    replaceItem(session, session.items[session.itemIndex.get(id)!]!);
  }
  session.persist();
  renderChrome(session);
  if (missed[0]) session.legendOf(missed[0])?.focus();
  session.announce(
    missed.length === 1
      ? t('quizui.announce.retry_missed_one', '{count} question to try again, with new numbers where there are numbers.', {
          count: session.count(1),
        })
      : t('quizui.announce.retry_missed_other', '{count} questions to try again, with new numbers where there are numbers.', {
          count: session.count(missed.length),
        }),
  );
}

function reset(session: QuizSession): void {
  // Stamped now, so the restart wins over older answers saved by another tab. Both sets start
  // again, and the deeper questions leave the screen until the learner goes on to them again.
  session.progress = resetMastery(
    initialProgress(session.known, session.progress.mode, Date.now(), session.progress.learner),
    session.bank.takeaways.map((takeaway) => takeaway.id),
  );
  session.views.clear();
  for (const item of session.further) {
    session.itemElements.get(item.id)?.remove();
    session.itemElements.delete(item.id);
  }
  session.showItems(false);
  for (const item of session.items) replaceItem(session, item);
  session.progress = { ...session.progress, current: session.items[0]?.id ?? null };
  session.persist();
  renderChrome(session);
}

/**
 * The learner goes on from the lesson set into the deeper questions: they join the questions on
 * show (numbered after the lesson's), the first unanswered one opens, and the score of the set
 * asked, the one the host receives, stays as it is.
 */
function continueFurther(session: QuizSession): void {
  if (session.further.length === 0 || session.progress.continued) return;
  session.showItems(true);
  for (const item of session.graded) replaceItem(session, item);
  for (const item of session.further) {
    const li = renderItem(session, item);
    session.itemElements.set(item.id, li);
    session.frame.list.append(li);
  }
  const first = nextUnanswered(session.progress, session.further, null) ?? session.further[0]!.id;
  session.progress = { ...session.progress, continued: true, current: first };
  session.persist();
  renderChrome(session);
  session.legendOf(first)?.focus();
  session.announce(
    session.t('quizui.announce.continued', 'The deeper questions follow the lesson questions, from question {number}.', {
      number: session.count(session.graded.length + 1),
    }),
  );
}

export function quizActions(session: QuizSession): QuizActions {
  return {
    check: (item) => check(session, item),
    reveal: (item) => reveal(session, item),
    retry: (item) => retry(session, item),
    backTo: (id) => backTo(session, id),
    show: (id, focus) => show(session, id, focus),
    goTo: (id) => {
      if (session.progress.mode === 'one') show(session, id, 'legend');
      else session.legendOf(id)?.focus();
    },
    retryMissed: () => missedAgain(session),
    continueFurther: () => continueFurther(session),
    practise: (takeaway, slip, fromItemId) => practise(session, takeaway, slip, fromItemId),
    nextPractice: () => nextPractice(session),
    endPractice: () => endPractice(session),
    reset: () => reset(session),
    replaceItem: (item) => replaceItem(session, item),
    renderChrome: () => renderChrome(session),
  };
}
