// The practice box (docs/quiz.md, "Practice"): the takeaway practised, how far it is from mastered,
// one question with fresh numbers, and the way on (the next question) or back (the results). In the
// summary, each takeaway's mastery with "Practise this".

import { h } from '../dom/dom';
import { drawPracticeItem, practiceItem } from './practice-actions';
import { MASTERY_STREAK, masteryState } from './practice';
import type { QuizSession } from './session';
import type { MasteryState } from './types';

const MASTERY_MARKS: Record<MasteryState, string> = { 'not-started': '○', practising: '◐', mastered: '✓' };

/** "Mastered", "Practising" or "Not started", in the widget's language. */
export function masteryWords(session: QuizSession, state: MasteryState): string {
  const { t } = session;
  if (state === 'mastered') return t('quizui.mastery.mastered', 'Mastered');
  if (state === 'practising') return t('quizui.mastery.practising', 'Practising');
  return t('quizui.mastery.not_started', 'Not started');
}

/** A takeaway's mastery as a badge: a mark and words, never colour alone. */
export function masteryBadge(session: QuizSession, state: MasteryState): HTMLElement {
  return h(
    'span',
    { className: `ts-quiz-mastery-state ts-quiz-mastery-${state}`, 'data-mastery': state },
    h('span', { className: 'ts-quiz-mark', 'aria-hidden': 'true' }, MASTERY_MARKS[state]),
    ` ${masteryWords(session, state)}`,
  );
}

/** Where the practised takeaway stands: mastered, or how many right in a row so far. */
function statusLine(session: QuizSession, takeaway: string): string {
  const { t } = session;
  const state = masteryState(session.progress, takeaway);
  if (state === 'mastered')
    return t('quizui.practice.status_mastered', 'Mastered. Keep practising if you like, or go back to your results.');
  const streak = Math.min(session.progress.mastery[takeaway]?.streak ?? 0, MASTERY_STREAK);
  return t('quizui.practice.status_streak', '{streak} of {needed} right in a row (without the solution or “show me”) to master it.', {
    streak: session.count(streak),
    needed: session.count(MASTERY_STREAK),
  });
}

/** The practice box's content for the run on screen; its question is drawn when it is not there yet. */
export function renderPractice(session: QuizSession): void {
  const { t, frame } = session;
  const run = session.progress.practice;
  const item = practiceItem(session);
  if (!run || !item) return;
  const box = frame.practiceSection;
  const title = session.bank.takeaways.find((entry) => entry.id === run.takeaway)?.text ?? run.takeaway;
  box.querySelector('.ts-quiz-practice-title')!.textContent = t('quizui.practice.title', 'Practice: {takeaway}', { takeaway: title });
  const status = box.querySelector<HTMLElement>('.ts-quiz-practice-status')!;
  status.dataset.mastery = masteryState(session.progress, run.takeaway);
  status.replaceChildren(masteryBadge(session, masteryState(session.progress, run.takeaway)), ' ', statusLine(session, run.takeaway));
  if (!session.itemElements.has(item.id)) drawPracticeItem(session);
  const answered = session.stateOf(item).status !== 'new';
  const next = h(
    'button',
    { type: 'button', className: `ts-quiz-button${answered ? ' ts-quiz-button-primary' : ''}`, 'data-action': 'next-practice' },
    t('quizui.practice.next', 'Next practice question'),
  );
  next.hidden = !answered;
  next.addEventListener('click', () => session.actions.nextPractice());
  const back = h(
    'button',
    { type: 'button', className: 'ts-quiz-button ts-quiz-button-quiet', 'data-action': 'end-practice' },
    session.shownScore().completed || session.progress.current === null
      ? t('quizui.practice.back', 'Back to your results')
      : t('quizui.practice.back_to_questions', 'Back to the questions'),
  );
  back.addEventListener('click', () => session.actions.endPractice());
  box.querySelector('.ts-quiz-practice-nav')!.replaceChildren(next, back);
}

/** The summary's mastery per takeaway, each with "Practise this" (docs/quiz.md, "Practice"). */
export function masteryLines(session: QuizSession): HTMLElement[] {
  const { t } = session;
  const asked = new Set(session.items.map((item) => item.takeaway));
  const takeaways = session.bank.takeaways.filter((takeaway) => asked.has(takeaway.id));
  if (takeaways.length === 0) return [];
  return [
    h(`h${session.headingLevel + 2}` as 'h4', { className: 'ts-quiz-mastery-title' }, t('quizui.mastery.title', 'Practice by takeaway')),
    h(
      'p',
      { className: 'ts-quiz-mastery-intro' },
      session.options.practiceCounts
        ? t(
            'quizui.mastery.intro_counts',
            'Practice asks a takeaway’s questions with fresh numbers until you get two right in a row. In this course, a right practice answer to a question you missed counts as a later try.',
          )
        : t(
            'quizui.mastery.intro',
            'Practice asks a takeaway’s questions with fresh numbers until you get two right in a row. It does not change your score.',
          ),
    ),
    h(
      'ul',
      { className: 'ts-quiz-mastery' },
      takeaways.map((takeaway) => {
        const state = masteryState(session.progress, takeaway.id);
        const practise = h(
          'button',
          { type: 'button', className: 'ts-quiz-button', 'data-action': 'practise', 'data-takeaway': takeaway.id },
          state === 'mastered' ? t('quizui.mastery.practise_again', 'Practise again') : t('quizui.mastery.practise', 'Practise this'),
        );
        practise.addEventListener('click', () => session.actions.practise(takeaway.id, null, null));
        return h(
          'li',
          { className: 'ts-quiz-mastery-item', 'data-takeaway': takeaway.id, 'data-mastery': state },
          h('p', { className: 'ts-quiz-mastery-takeaway' }, takeaway.text),
          h('p', { className: 'ts-quiz-mastery-row' }, masteryBadge(session, state), ' ', practise),
        );
      }),
    ),
  ];
}
