// Progress, navigation and the summary: "Question 3 of 21", the step dots, previous / next /
// results, and the results with the takeaways worth revisiting.

import { h } from '../dom/dom';
import type { QuizSession } from './session';
import { masteryLines, renderPractice } from './practice-view';
import { nextUnanswered, summarize, type Summary } from './state';
import { cssPercent, formatPoints, setLabel, withElement } from './words';

function progressLine(session: QuizSession, single: boolean, currentIndex: number): string {
  const { t, items } = session;
  const now = session.shownScore();
  const count = (value: number) => session.count(value);
  return single && currentIndex >= 0
    ? t('quizui.progress.one', 'Question {number} of {total} · {answered} answered, {right} right', {
        number: count(currentIndex + 1),
        total: count(items.length),
        answered: count(now.answered),
        right: count(now.right),
      })
    : t('quizui.progress.all', '{answered} of {total} answered, {right} right', {
        answered: count(now.answered),
        total: count(items.length),
        right: count(now.right),
      });
}

/** One question at a time: previous, then next, back to the questions, or the results. */
function updateNavigation(session: QuizSession, currentIndex: number): void {
  const { t, items, progress, frame } = session;
  const { nextButton } = frame;
  frame.previousButton.hidden = progress.current === null || currentIndex <= 0;
  if (progress.current === null) {
    nextButton.textContent = t('quizui.nav.back', '← Back to the questions');
    nextButton.dataset.action = 'back';
  } else if (currentIndex === items.length - 1) {
    nextButton.textContent = t('quizui.nav.results', 'See your results');
    nextButton.dataset.action = 'results';
  } else {
    nextButton.textContent = t('quizui.nav.next', 'Next question →');
    nextButton.dataset.action = 'next';
  }
}

/** The progress, the navigation, which questions show, and the summary when it is due. */
export function renderChrome(session: QuizSession): void {
  const { t, items, progress, frame } = session;
  const now = session.shownScore();
  const single = progress.mode === 'one';
  frame.root.classList.toggle('ts-quiz-mode-one', single);
  frame.root.classList.toggle('ts-quiz-mode-all', !single);
  frame.modeToggle.setAttribute('aria-pressed', String(!single));
  const currentIndex = progress.current === null ? -1 : (session.itemIndex.get(progress.current) ?? -1);
  frame.progressText.textContent = progressLine(session, single, currentIndex);
  frame.progressBar.replaceChildren(
    ...items.map((item, index) => {
      const step = h('li', { className: `ts-quiz-step ts-quiz-step-${progress.items[item.id]!.status}` });
      if (single && index === currentIndex) step.classList.add('ts-quiz-step-current');
      return step;
    }),
  );
  for (const item of items) {
    const element = session.itemElements.get(item.id);
    if (element) element.hidden = single && item.id !== progress.current;
  }
  frame.nav.hidden = !single || items.length === 0;
  frame.resultsButton.hidden = !now.completed || progress.current === null || currentIndex === items.length - 1;
  if (single) updateNavigation(session, currentIndex);
  frame.pending.hidden = single || now.completed || items.length === 0;
  const toGo = items.length - now.answered;
  frame.pending.textContent =
    toGo === 1
      ? t('quizui.pending.one', 'Your results appear here once every question is answered ({count} question to go).', {
          count: session.count(toGo),
        })
      : t('quizui.pending.other', 'Your results appear here once every question is answered ({count} questions to go).', {
          count: session.count(toGo),
        });
  const summaryShown = single ? progress.current === null : now.completed;
  frame.summarySection.hidden = !summaryShown || items.length === 0;
  // A practice run takes the questions' and the results' place until the learner leaves it.
  const practising = progress.practice !== null;
  frame.practiceSection.hidden = !practising;
  if (practising) {
    frame.list.hidden = true;
    frame.nav.hidden = true;
    frame.pending.hidden = true;
    frame.summarySection.hidden = true;
    renderPractice(session);
  } else {
    frame.list.hidden = false;
  }
  if (!frame.summarySection.hidden) renderSummary(session);
}

/** "12 of 21 questions right (10 at the first try)" and the points the host receives. */
function scoreLines(session: QuizSession, summary: Summary): HTMLElement[] {
  const { t } = session;
  const count = (value: number) => session.count(value);
  const rightOf = h(
    'strong',
    { className: 'ts-quiz-score-value' },
    t('quizui.summary.right_of', '{right} of {max}', { right: count(summary.right), max: count(summary.max) }),
  );
  const score = h(
    'p',
    { className: 'ts-quiz-score', 'data-set': session.set },
    session.labelled
      ? withElement(t('quizui.summary.questions_right_set', '{score} right: {set}', { set: setLabel(t, session.set) }), 'score', rightOf)
      : withElement(t('quizui.summary.questions_right', '{score} questions right'), 'score', rightOf),
    summary.answered > 0
      ? h(
          'span',
          { className: 'ts-quiz-score-detail' },
          ' ',
          t('quizui.summary.first_try', '({count} at the first try)', { count: count(summary.firstTry) }),
        )
      : null,
  );
  // The points are what the host and the LMS receive: 1 at the first try, ½ later, 0 after the solution.
  const pointsOf = h(
    'strong',
    null,
    t('quizui.summary.points_of', '{points} of {max}', { points: formatPoints(summary.score, count), max: count(summary.max) }),
  );
  const points = h(
    'p',
    { className: 'ts-quiz-points' },
    withElement(
      session.labelled
        ? t(
            'quizui.summary.points_set',
            'Score for the {set}: {points} (1 point for a question right at the first try, ½ at a later try, none once its solution was shown).',
            { set: setLabel(t, session.set) },
          )
        : t(
            'quizui.summary.points',
            'Score: {points} (1 point for a question right at the first try, ½ at a later try, none once its solution was shown).',
          ),
      'points',
      pointsOf,
    ),
  );
  return [score, points];
}

/** The score meter, with the pass mark on it and in words when the course sets one. */
function passLines(session: QuizSession, summary: Summary): HTMLElement[] {
  const { t, passMark } = session;
  const meter = h('div', { className: 'ts-quiz-meter', 'aria-hidden': 'true' }, h('span', { className: 'ts-quiz-meter-fill' }));
  (meter.firstElementChild as HTMLElement).style.width = cssPercent(summary.scaled);
  if (passMark === null) return [meter];
  const markLine = h('span', { className: 'ts-quiz-meter-mark' });
  markLine.style.left = cssPercent(passMark);
  meter.append(markLine);
  const mark = session.percent(passMark);
  const set = setLabel(t, session.set);
  let text: string;
  if (!session.labelled)
    text = summary.passed
      ? t('quizui.summary.pass_met', "That meets the course's pass mark of {mark}.", { mark })
      : t(
          'quizui.summary.pass_not_met',
          "The course's pass mark is {mark}. The ideas below are the ones worth another look on the way there.",
          {
            mark,
          },
        );
  else
    text = summary.passed
      ? t('quizui.summary.pass_met_set', "That meets the course's pass mark of {mark} for the {set}.", { mark, set })
      : t(
          'quizui.summary.pass_not_met_set',
          "The course's pass mark for the {set} is {mark}. The ideas below are the ones worth another look on the way there.",
          { mark, set },
        );
  return [meter, h('p', { className: 'ts-quiz-pass', 'data-set': session.set }, text)];
}

/** After the lesson set: the deeper questions, one click away and never forced. */
function goOnLines(session: QuizSession, graded: Summary): HTMLElement[] {
  const { t, further } = session;
  const count = (value: number) => session.count(value);
  if (further.length === 0 || session.progress.continued || !graded.completed) return [];
  const go = h(
    'button',
    // The learner's next step is the missed questions' retry, when there are any: then this one is not primary.
    {
      type: 'button',
      className: graded.missed.length > 0 ? 'ts-quiz-button' : 'ts-quiz-button ts-quiz-button-primary',
      'data-action': 'continue-deeper',
    },
    further.length === 1
      ? t('quizui.summary.continue_one', 'Go on to {count} deeper question', { count: count(1) })
      : t('quizui.summary.continue_other', 'Go on to {count} deeper questions', { count: count(further.length) }),
  );
  go.addEventListener('click', () => session.actions.continueFurther());
  return [
    h(
      'p',
      { className: 'ts-quiz-further-intro' },
      t(
        'quizui.summary.continue_intro',
        'Want more? The deeper questions go past the lesson. They are practice: the score above stays as it is.',
      ),
    ),
    go,
  ];
}

/** Once the learner went on: the deeper questions' own line, apart from the score the host receives. */
function deeperScoreLines(session: QuizSession): HTMLElement[] {
  const { t, further } = session;
  if (further.length === 0 || !session.progress.continued) return [];
  const count = (value: number) => session.count(value);
  const deeper = summarize(session.progress, further, session.bank.takeaways, null);
  const rightOf = h(
    'strong',
    { className: 'ts-quiz-score-value' },
    t('quizui.summary.right_of', '{right} of {max}', { right: count(deeper.right), max: count(deeper.max) }),
  );
  return [
    h(
      'p',
      { className: 'ts-quiz-score ts-quiz-score-further', 'data-set': 'deeper' },
      withElement(t('quizui.summary.questions_right_set', '{score} right: {set}', { set: setLabel(t, 'deeper') }), 'score', rightOf),
      ' ',
      h('span', { className: 'ts-quiz-score-detail' }, t('quizui.summary.further_practice', '(practice: not part of the score above)')),
    ),
  ];
}

function unansweredLines(session: QuizSession, summary: Summary): HTMLElement[] {
  const { t } = session;
  if (summary.completed) return [];
  const left = summary.max - summary.answered;
  const go = h(
    'button',
    { type: 'button', className: 'ts-quiz-button', 'data-action': 'first-unanswered' },
    t('quizui.summary.first_unanswered', 'Go to the first unanswered question'),
  );
  go.addEventListener('click', () => session.actions.show(nextUnanswered(session.progress, session.items, null), 'legend'));
  return [
    h(
      'p',
      { className: 'ts-quiz-unanswered' },
      left === 1
        ? t('quizui.summary.unanswered_one', '{count} question is still unanswered.', { count: session.count(left) })
        : t('quizui.summary.unanswered_other', '{count} questions are still unanswered.', { count: session.count(left) }),
    ),
    go,
  ];
}

/** The takeaways worth revisiting, each with its questions to jump to. */
function revisitLines(session: QuizSession, summary: Summary): HTMLElement[] {
  const { t } = session;
  if (summary.revisit.length === 0) {
    return summary.completed
      ? [h('p', { className: 'ts-quiz-all-right' }, t('quizui.summary.all_right', 'Every answer right: nothing to revisit. Well done.'))]
      : [];
  }
  const jump = (id: string) => {
    const index = session.itemIndex.get(id)!;
    const prompt = session.views.get(id)?.instance?.prompt ?? id;
    const button = h(
      'button',
      { type: 'button', className: 'ts-quiz-button-link ts-quiz-jump', 'data-item-id': id },
      h(
        'span',
        { className: 'ts-quiz-jump-number' },
        t('quizui.summary.question_number', 'Question {number}:', { number: session.count(index + 1) }),
        ' ',
      ),
      prompt,
    );
    button.addEventListener('click', () => session.actions.goTo(id));
    return h('li', null, button);
  };
  return [
    h(`h${session.headingLevel + 2}` as 'h4', { className: 'ts-quiz-revisit-title' }, t('quizui.summary.revisit', 'Worth revisiting')),
    h(
      'ul',
      { className: 'ts-quiz-revisit' },
      summary.revisit.map((entry) =>
        h(
          'li',
          { className: 'ts-quiz-revisit-item' },
          // Questions whose takeaway the bank does not list are grouped under no takeaway at all.
          h(
            'p',
            { className: 'ts-quiz-takeaway' },
            entry.takeaway.id === '' ? t('quizui.summary.other_questions', 'Other questions') : entry.takeaway.text,
          ),
          h('ul', { className: 'ts-quiz-revisit-questions' }, entry.itemIds.map(jump)),
        ),
      ),
    ),
  ];
}

function summaryActions(session: QuizSession, summary: Summary): HTMLElement {
  const { t } = session;
  const actions = h('div', { className: 'ts-quiz-actions' });
  if (summary.missed.length > 0) {
    const again = h(
      'button',
      { type: 'button', className: 'ts-quiz-button ts-quiz-button-primary', 'data-action': 'retry-missed' },
      summary.missed.length === 1
        ? t('quizui.summary.retry_missed_one', 'Retry the {count} missed question', { count: session.count(1) })
        : t('quizui.summary.retry_missed_other', 'Retry the {count} missed questions', { count: session.count(summary.missed.length) }),
    );
    again.addEventListener('click', () => session.actions.retryMissed());
    actions.append(again);
  }
  const restart = h(
    'button',
    { type: 'button', className: 'ts-quiz-button ts-quiz-button-quiet', 'data-action': 'restart' },
    t('quizui.summary.restart', 'Start again from scratch'),
  );
  restart.addEventListener('click', () => {
    session.actions.reset();
    session.legendOf(session.items[0]!.id)?.focus();
  });
  actions.append(restart);
  return actions;
}

export function renderSummary(session: QuizSession): void {
  const { t } = session;
  // The score and the pass mark are the set asked's; what is unanswered, worth revisiting and
  // retried covers every question on show, the deeper ones too once the learner went on.
  const graded = summarize(session.progress, session.graded, session.bank.takeaways, session.passMark);
  const shown = summarize(session.progress, session.items, session.bank.takeaways, session.passMark);
  const title = h(
    `h${session.headingLevel + 1}` as 'h3',
    { className: 'ts-quiz-summary-title', id: session.uid('summary-title'), tabindex: '-1' },
    shown.completed ? t('quizui.summary.title', 'Your results') : t('quizui.summary.title_so_far', 'Your results so far'),
  );
  session.frame.summarySection.replaceChildren(
    title,
    ...scoreLines(session, graded),
    ...passLines(session, graded),
    ...deeperScoreLines(session),
    ...unansweredLines(session, shown),
    ...revisitLines(session, shown),
    ...masteryLines(session),
    ...goOnLines(session, graded),
    summaryActions(session, shown),
  );
}
