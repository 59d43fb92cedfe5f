// A settled question's feedback: the verdict, the engine's message or the solution, the "Why"
// once the answer may be told, "show me in the simulation", and try again / show solution.

import { h } from '../dom/dom';
import type { PreparedItem } from './bank';
import type { ItemView, QuizSession } from './session';
import type { QuizInstance } from './types';
import { noteShown } from './practice';
import { sawAnswerInSimulation } from './state';
import { withElement } from './words';

function verdictLine(session: QuizSession, status: string): HTMLElement {
  const { t } = session;
  const verdict =
    status === 'correct'
      ? t('quizui.feedback.correct', 'Correct')
      : status === 'incorrect'
        ? t('quizui.feedback.incorrect', 'Not quite')
        : t('quizui.feedback.solution', 'The solution');
  const mark = status === 'correct' ? '✓' : status === 'incorrect' ? '✗' : 'ⓘ';
  return h('p', { className: 'ts-quiz-verdict' }, h('span', { className: 'ts-quiz-mark', 'aria-hidden': 'true' }, mark), ` ${verdict}`);
}

/** After an answer: what was read (a wrong typed answer) and the engine's message (not for a single choice: it is beside the option). */
function gradedLines(session: QuizSession, item: PreparedItem, view: ItemView, status: string): HTMLElement[] {
  const result = view.grade;
  if ((status !== 'correct' && status !== 'incorrect') || !result || (result.status !== 'correct' && result.status !== 'incorrect'))
    return [];
  const lines: HTMLElement[] = [];
  if (item.numeric && result.answer_display && status === 'incorrect') {
    lines.push(
      h(
        'p',
        { className: 'ts-quiz-your-answer' },
        session.t('quizui.feedback.you_answered', 'You answered {answer}.', { answer: result.answer_display }),
      ),
    );
  }
  if (item.kind !== 'single_choice') lines.push(h('p', { className: 'ts-quiz-message' }, result.message));
  return lines;
}

/** The solution shown: the engine's answer, or the right options as the engine asked them (in the widget's language). */
function solutionLine(session: QuizSession, item: PreparedItem, instance: QuizInstance): HTMLElement | null {
  const { t } = session;
  if (item.numeric) {
    return instance.expected_display
      ? h(
          'p',
          { className: 'ts-quiz-expected' },
          withElement(t('quizui.feedback.the_answer', 'The answer: {answer}.'), 'answer', h('strong', null, instance.expected_display)),
        )
      : null;
  }
  const right = item.options
    .filter((option) => option.correct)
    .map((option) => instance.options.find((asked) => asked.id === option.id)?.text ?? option.text);
  const template =
    right.length === 1
      ? t('quizui.feedback.right_answer', 'The right answer: {answer}.')
      : t('quizui.feedback.right_answers', 'The right answers: {answers}.');
  return h(
    'p',
    { className: 'ts-quiz-expected' },
    withElement(
      template,
      right.length === 1 ? 'answer' : 'answers',
      h('strong', null, right.join(t('quizui.feedback.answers_separator', '; '))),
    ),
  );
}

/** "Show me in the simulation", where the host shows one and the item has a scenario. */
function simulationRow(session: QuizSession, item: PreparedItem, index: number, instance: QuizInstance): HTMLElement | null {
  const { t, options } = session;
  const simulation = instance.simulation;
  // A practice question has no number to come back to: practice shows the solution instead.
  if (!options.onShowInSimulation || !simulation || item.practice) return null;
  const show = h(
    'button',
    { type: 'button', className: 'ts-quiz-button-link ts-quiz-simulation', 'data-action': 'simulation' },
    t('quizui.action.show_me', 'Show me in the simulation'),
  );
  show.addEventListener('click', () => {
    // The simulation shows the answer: a retry after it scores as after "Show solution" (docs/quiz.md, "Scoring").
    if (session.stateOf(item).status !== 'correct') {
      session.progress = noteShown(sawAnswerInSimulation(session.progress, item.id), item.takeaway);
      session.persist();
    }
    try {
      // A fresh copy: the host may keep or change it.
      options.onShowInSimulation?.(JSON.parse(JSON.stringify(simulation)) as object, {
        section: instance.show?.section ?? '',
        figure: instance.show?.figure ?? '',
        moment: instance.show?.moment ?? null,
        itemId: item.id,
        question: index + 1,
        expected: instance.expected,
        answerDrawn: instance.show?.answer_drawn !== false,
        back: () => session.actions.backTo(item.id),
      });
    } catch (error) {
      console.warn(t('quizui.console.show_me_failed', '[trainscope quiz] onShowInSimulation failed'), error);
    }
  });
  // Said before the click, after a wrong answer: the learner chooses between a retry for half a point and seeing the answer.
  const costs =
    session.stateOf(item).status === 'incorrect' && !session.stateOf(item).solutionSeen
      ? h(
          'span',
          { className: 'ts-quiz-hint' },
          ' ',
          t('quizui.feedback.show_me_shows_answer', 'It shows the answer, so a right answer after it scores as after “Show solution”.'),
        )
      : null;
  return h('p', { className: 'ts-quiz-simulation-row' }, show, costs);
}

/** Try again (with new numbers where the item draws them) until right; show the solution after a wrong answer. */
function feedbackActions(session: QuizSession, item: PreparedItem, status: string): HTMLElement | null {
  const { t } = session;
  const actions = h('div', { className: 'ts-quiz-actions' });
  if (status !== 'correct') {
    const again = h(
      'button',
      { type: 'button', className: 'ts-quiz-button', 'data-action': 'retry' },
      item.randomized ? t('quizui.action.retry_new_numbers', 'Try again with new numbers') : t('quizui.action.retry', 'Try again'),
    );
    again.addEventListener('click', () => session.actions.retry(item));
    actions.append(again);
  }
  if (status === 'incorrect') {
    const reveal = h(
      'button',
      { type: 'button', className: 'ts-quiz-button ts-quiz-button-quiet', 'data-action': 'reveal' },
      t('quizui.action.reveal', 'Show solution'),
    );
    reveal.addEventListener('click', () => session.actions.reveal(item));
    actions.append(reveal);
  }
  if (status === 'incorrect' && !item.practice) {
    // Practice of this question's takeaway, aimed first at the slip the engine just named.
    const practise = h(
      'button',
      { type: 'button', className: 'ts-quiz-button ts-quiz-button-quiet', 'data-action': 'practise', 'data-takeaway': item.takeaway },
      t('quizui.mastery.practise', 'Practise this'),
    );
    practise.addEventListener('click', () =>
      session.actions.practise(item.takeaway, session.viewOf(item).grade?.misconception ?? null, item.id),
    );
    actions.append(practise);
  }
  return actions.childElementCount > 0 ? actions : null;
}

export function renderFeedback(
  session: QuizSession,
  item: PreparedItem,
  index: number,
  instance: QuizInstance,
  view: ItemView,
): HTMLElement {
  const { status } = session.stateOf(item);
  const feedback = h(
    'div',
    { className: `ts-quiz-feedback ts-quiz-feedback-${status}`, id: session.uid(`${index}-feedback`), tabindex: '-1' },
    verdictLine(session, status),
    gradedLines(session, item, view, status),
  );
  // A right numeric answer's message already names the answer ("Correct: 1.12 TB.").
  const solution = status === 'revealed' ? solutionLine(session, item, instance) : null;
  if (solution) feedback.append(solution);
  // The "Why" states the answer, so it waits until the question is settled (right, or its
  // solution shown): after a wrong answer, trying again still means thinking.
  const explanation = status === 'incorrect' ? '' : view.grade?.explanation;
  if (explanation) {
    feedback.append(
      h(
        'div',
        { className: 'ts-quiz-explanation' },
        h('p', null, h('strong', null, session.t('quizui.feedback.why', 'Why:')), ' ', explanation),
      ),
    );
  }
  const simulation = simulationRow(session, item, index, instance);
  if (simulation) feedback.append(simulation);
  const actions = feedbackActions(session, item, status);
  if (actions) feedback.append(actions);
  return feedback;
}
