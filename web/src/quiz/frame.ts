// The quiz's frame: heading, introduction, progress, the mode toggle, the bank's problems, the
// list of questions, the navigation and the summary's box. Built once; summary.ts updates it.

import { h } from '../dom/dom';
import { describeProblem } from './bank';
import type { QuizFrame, QuizSession } from './session';

/** Why some questions (or all) are missing, for the learner and, in details, the course author. */
function problemsLead(session: QuizSession): string {
  const { t, bank, bankName } = session;
  const left = bank.skipped.length;
  const usable = bank.items.length;
  const named = { name: bankName ?? '', count: session.count(left) };
  if (usable === 0) {
    return bankName
      ? t(
          'quizui.notice.none_usable_named',
          'The questions for this self-check could not be loaded: the question bank “{name}” has mistakes the quiz cannot work around.',
          named,
        )
      : t(
          'quizui.notice.none_usable',
          'The questions for this self-check could not be loaded: the question bank has mistakes the quiz cannot work around.',
        );
  }
  if (left === 0) {
    return bankName
      ? t('quizui.notice.small_mistakes_named', 'The question bank “{name}” has small mistakes; every question can still be asked.', named)
      : t('quizui.notice.small_mistakes', 'The question bank has small mistakes; every question can still be asked.');
  }
  const leftOut =
    left === 1
      ? bankName
        ? t(
            'quizui.notice.left_out_one_named',
            '{count} question was left out because it has mistakes in the question bank “{name}”.',
            named,
          )
        : t('quizui.notice.left_out_one', '{count} question was left out because it has mistakes in the question bank.', named)
      : bankName
        ? t(
            'quizui.notice.left_out_other_named',
            '{count} questions were left out because they have mistakes in the question bank “{name}”.',
            named,
          )
        : t('quizui.notice.left_out_other', '{count} questions were left out because they have mistakes in the question bank.', named);
  const others =
    usable === 1
      ? t('quizui.notice.others_work_one', 'The other {count} question works as usual.', { count: session.count(usable) })
      : t('quizui.notice.others_work_other', 'The other {count} questions work as usual.', { count: session.count(usable) });
  return `${leftOut} ${others}`;
}

function problemsNotice(session: QuizSession): HTMLElement | null {
  const { t, bank, bankProblem, items } = session;
  const loadProblem = bankProblem ? h('p', { className: 'ts-quiz-bank-problem' }, bankProblem) : null;
  if (bank.problems.length === 0) return loadProblem ? h('div', { className: 'ts-quiz-notice', role: 'status' }, loadProblem) : null;
  return h(
    'div',
    { className: `ts-quiz-notice${items.length === 0 ? ' ts-quiz-notice-error' : ''}`, role: items.length === 0 ? 'alert' : null },
    loadProblem,
    h('p', null, problemsLead(session)),
    h(
      'details',
      { className: 'ts-quiz-notice-details' },
      h(
        'summary',
        null,
        bank.problems.length === 1
          ? t('quizui.notice.details_one', 'Details for the course author ({count} problem)', { count: session.count(1) })
          : t('quizui.notice.details_other', 'Details for the course author ({count} problems)', {
              count: session.count(bank.problems.length),
            }),
      ),
      h(
        'ul',
        null,
        bank.problems.map((problem) => h('li', null, describeProblem(problem, t))),
      ),
    ),
  );
}

function navigation(session: QuizSession) {
  const { t } = session;
  const previousButton = h(
    'button',
    { type: 'button', className: 'ts-quiz-button ts-quiz-button-quiet', 'data-action': 'previous' },
    t('quizui.nav.previous', '← Previous'),
  );
  const nextButton = h(
    'button',
    { type: 'button', className: 'ts-quiz-button', 'data-action': 'next' },
    t('quizui.nav.next', 'Next question →'),
  );
  // Once every question is answered, the results are one step away from wherever the learner is.
  const resultsButton = h(
    'button',
    { type: 'button', className: 'ts-quiz-button ts-quiz-button-primary', 'data-action': 'results' },
    t('quizui.nav.results', 'See your results'),
  );
  const nav = h('div', { className: 'ts-quiz-nav' }, previousButton, resultsButton, nextButton);
  return { previousButton, nextButton, resultsButton, nav };
}

/** The intro promises only what holds: "not an exam" without a pass mark, "new numbers" when an item draws them. */
function introText(session: QuizSession): string {
  const { t } = session;
  const newNumbers = session.bank.drawsNumbers;
  if (session.passMark === null) {
    return newNumbers
      ? t(
          'quizui.intro',
          'A self-check, not an exam: answer at your own pace. Every answer comes with an explanation, and you can try again with new numbers.',
        )
      : t(
          'quizui.intro_same_numbers',
          'A self-check, not an exam: answer at your own pace. Every answer comes with an explanation, and you can try again.',
        );
  }
  return newNumbers
    ? t(
        'quizui.intro_pass_mark',
        'Answer at your own pace: every answer comes with an explanation, and you can try again with new numbers. A right answer at the first try counts most.',
      )
    : t(
        'quizui.intro_pass_mark_same_numbers',
        'Answer at your own pace: every answer comes with an explanation, and you can try again. A right answer at the first try counts most.',
      );
}

/** The practice box (practice-view.ts fills it): a title, where the takeaway stands, one question, the way on and back. */
function practiceBox(session: QuizSession): HTMLElement {
  const titleId = session.uid('practice-title');
  return h(
    'section',
    { className: 'ts-quiz-practice', 'aria-labelledby': titleId, hidden: true },
    h(`h${session.headingLevel + 1}` as 'h3', { className: 'ts-quiz-practice-title', id: titleId, tabindex: '-1' }),
    h('p', { className: 'ts-quiz-practice-status' }),
    h('ol', { className: 'ts-quiz-items ts-quiz-practice-items' }),
    h('div', { className: 'ts-quiz-actions ts-quiz-practice-nav' }),
  );
}

/** The frame, appended to the container. */
export function buildFrame(session: QuizSession): QuizFrame {
  const { t, options, uid } = { t: session.t, options: session.options, uid: (name: string) => session.uid(name) };
  const headingTag = `h${session.headingLevel}` as 'h2';
  const heading =
    options.heading === null
      ? null
      : h(headingTag, { className: 'ts-quiz-title', id: uid('title') }, options.heading ?? t('quizui.heading', 'Check your understanding'));
  const intro = h('p', { className: 'ts-quiz-intro' }, introText(session));
  const progressText = h('p', { className: 'ts-quiz-progress-text', id: uid('progress') });
  const progressBar = h('ol', { className: 'ts-quiz-progress-bar', 'aria-hidden': 'true' });
  const modeToggle = h(
    'button',
    { type: 'button', className: 'ts-quiz-button ts-quiz-button-quiet ts-quiz-mode', 'aria-pressed': 'false' },
    t('quizui.mode.all_at_once', 'Show all questions at once'),
  );
  const storageNote = h(
    'p',
    { className: 'ts-quiz-storage-note', hidden: true },
    t('quizui.storage.page_only', 'Your answers are kept only while this page stays open.'),
  );
  const list = h('ol', { className: 'ts-quiz-items' });
  const { previousButton, nextButton, resultsButton, nav } = navigation(session);
  const summarySection = h('section', { className: 'ts-quiz-summary', 'aria-labelledby': uid('summary-title'), hidden: true });
  const practiceSection = practiceBox(session);
  const pending = h('p', { className: 'ts-quiz-pending', hidden: true });
  const live = h('div', { className: 'ts-quiz-live', 'aria-live': 'polite', 'aria-atomic': 'true' });
  // With a heading the quiz is a region landmark named by it, so the host's container should be
  // a plain box (two landmarks with one name is an axe failure); with heading: null, a plain box.
  const root = h(
    heading ? 'section' : 'div',
    { className: 'ts-quiz-root', 'data-ts-quiz': '', 'aria-labelledby': heading ? uid('title') : null },
    h(
      'header',
      { className: 'ts-quiz-header' },
      heading,
      intro,
      session.items.length > 0
        ? h('div', { className: 'ts-quiz-toolbar' }, h('div', { className: 'ts-quiz-progress' }, progressText, progressBar), modeToggle)
        : null,
      storageNote,
      problemsNotice(session),
    ),
    list,
    nav,
    pending,
    summarySection,
    practiceSection,
    live,
  );
  session.container.appendChild(root);
  return {
    root,
    list,
    progressText,
    progressBar,
    modeToggle,
    storageNote,
    previousButton,
    nextButton,
    resultsButton,
    nav,
    summarySection,
    practiceSection,
    pending,
    live,
  };
}
