// One question as the learner sees it: its legend and hint, its options or answer field (with
// "read as" while typing), its check and reveal buttons, and, once answered, its feedback.

import { h } from '../dom/dom';
import type { PreparedItem } from './bank';
import { renderFeedback } from './feedback';
import type { ItemView, QuizSession } from './session';
import { optionOrder } from './state';
import type { Answer, QuizInstance } from './types';
import { kindHint } from './words';

const READ_AS_DELAY_MS = 250;

/** The ids of one question's elements: unique in the document, numbered by the question. */
type ItemIds = (name: string) => string;

/** The verdict beside one option, or '' where none is shown. */
function optionVerdict(session: QuizSession, showVerdict: boolean, isCorrect: boolean, selected: boolean): string {
  const { t } = session;
  if (!showVerdict) return '';
  if (isCorrect) return selected ? t('quizui.option.chosen_right', 'Your choice: right.') : t('quizui.option.right', 'A right answer.');
  return selected ? t('quizui.option.chosen_wrong', 'Your choice: not right.') : t('quizui.option.wrong', 'Not right.');
}

/** A choice question's options, in this learner's order, each with its feedback once settled. */
function choiceOptions(session: QuizSession, item: PreparedItem, instance: QuizInstance, view: ItemView, id: ItemIds): HTMLElement {
  const state = session.stateOf(item);
  const answered = state.status !== 'new';
  const chosen = new Set(view.grade?.options.filter((option) => option.selected).map((option) => option.id) ?? []);
  const type = item.kind === 'single_choice' ? 'radio' : 'checkbox';
  const optionList = h('ul', { className: `ts-quiz-options ts-quiz-options-${type}` });
  optionOrder(instance.options, item.id, session.progress.learner, state.seed).forEach((option, optionIndex) => {
    const inputId = id(`option-${optionIndex}`);
    const feedbackId = id(`option-${optionIndex}-feedback`);
    const graded = view.grade?.options.find((entry) => entry.id === option.id);
    const authored = item.options.find((entry) => entry.id === option.id);
    const isCorrect = graded?.correct ?? authored?.correct ?? false;
    const selected = chosen.has(option.id);
    // Feedback on every option once the question is settled; after a wrong answer only on
    // what was picked, so that trying again still means thinking (the engine's rule too).
    const showFeedback = state.status === 'correct' || state.status === 'revealed' || (state.status === 'incorrect' && selected);
    const showVerdict = showFeedback && (state.status !== 'incorrect' || selected);
    const input = h('input', {
      type,
      id: inputId,
      name: id('choice'),
      value: option.id,
      className: 'ts-quiz-choice-input',
      disabled: answered,
      'aria-describedby': showFeedback ? feedbackId : null,
    });
    input.checked = selected;
    const rowClass = ['ts-quiz-option'];
    if (selected) rowClass.push('ts-quiz-option-selected');
    if (showVerdict) rowClass.push(isCorrect ? 'ts-quiz-option-right' : 'ts-quiz-option-wrong');
    optionList.append(
      h(
        'li',
        {
          className: rowClass.join(' '),
          'data-option-id': option.id,
          'data-verdict': showVerdict ? (isCorrect ? 'right' : 'wrong') : null,
        },
        h(
          'label',
          { className: 'ts-quiz-option-label', for: inputId },
          input,
          h('span', { className: 'ts-quiz-option-text' }, option.text),
        ),
        showFeedback
          ? h(
              'p',
              { className: 'ts-quiz-option-feedback', id: feedbackId },
              h(
                'span',
                { className: 'ts-quiz-option-verdict' },
                h('span', { className: 'ts-quiz-mark', 'aria-hidden': 'true' }, isCorrect ? '✓' : '✗'),
                ` ${optionVerdict(session, showVerdict, isCorrect, selected)}`,
              ),
              ' ',
              graded?.feedback || authored?.feedback || '',
            )
          : null,
      ),
    );
  });
  return optionList;
}

/** A typed answer's hint: the tolerance for an estimate, "a number" for a plain count, and the unit a bare number is read in. */
function numericHint(session: QuizSession, item: PreparedItem, instance: QuizInstance): string {
  const { t } = session;
  const lead =
    item.kind === 'estimate' && instance.tolerance_factor
      ? t('quizui.hint.estimate_factor', 'An estimate is enough: anything within a factor of {factor} of the answer counts.', {
          factor: session.engine.formatQuantity(instance.tolerance_factor, 'plain', 0),
        })
      : instance.unit === '' && item.kind === 'numeric'
        ? // A plain count (GPU-hours, a ratio) has no unit to ask for.
          t('quizui.hint.plain_number', 'Type a number.')
        : kindHint(t, item.kind);
  return instance.unit
    ? t('quizui.hint.any_unit', '{hint} Any unit works; a plain number is read in {unit}.', {
        hint: lead,
        unit: instance.unit_name || instance.unit,
      })
    : lead;
}

/** A numeric or estimate question's answer field, with what the engine reads the text as. */
function numericAnswer(
  session: QuizSession,
  item: PreparedItem,
  instance: QuizInstance,
  view: ItemView,
  id: ItemIds,
  inputError: HTMLElement,
): HTMLElement {
  const { t } = session;
  const state = session.stateOf(item);
  const answered = state.status !== 'new';
  const inputId = id('answer');
  const readAsId = id('read-as');
  const input = h('input', {
    type: 'text',
    id: inputId,
    className: 'ts-quiz-text-input',
    autocomplete: 'off',
    autocapitalize: 'off',
    spellcheck: 'false',
    disabled: answered,
    'aria-describedby': `${id('hint')} ${readAsId} ${id('error')}`,
  });
  if (answered) input.value = state.answer && 'text' in state.answer ? state.answer.text : '';
  const readAs = h('p', { className: 'ts-quiz-read-as', id: readAsId });
  if (!answered) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    input.addEventListener('input', () => {
      session.cancel(timer);
      timer = session.later(() => {
        readAs.textContent = readAsText(session, input.value, instance);
        // One hint at a time: the live reading replaces a check's message about the earlier text.
        hideInputError(input.closest('li'));
      }, READ_AS_DELAY_MS);
    });
  } else if (view.grade?.answer_display) {
    readAs.textContent = t('quizui.answer.read_as', 'Read as {value}.', { value: view.grade.answer_display });
  }
  return h(
    'div',
    { className: 'ts-quiz-answer' },
    h('label', { className: 'ts-quiz-answer-label', for: inputId }, t('quizui.answer.label', 'Your answer')),
    input,
    readAs,
    inputError,
  );
}

/** What the engine reads typed text as; what it cannot read says why ("eight": type the number in digits). */
function readAsText(session: QuizSession, text: string, instance: QuizInstance): string {
  const { t } = session;
  if (text.trim() === '') return '';
  const reading = session.calls.readQuantity(text, instance.unit);
  if (!reading) return '';
  if (!reading.ok) return reading.error;
  if (!reading.display) return '';
  if (!reading.has_unit && instance.unit) {
    // The engine writes the number in the question's unit, so "1" reads as "1 GPU", not "1 GPUs".
    const inUnit = session.calls.readQuantity(`${reading.display} ${instance.unit}`, instance.unit);
    const shown = inUnit?.ok && inUnit.display ? inUnit.display : `${reading.display} ${instance.unit}`;
    return t('quizui.answer.read_as_in_unit', 'Read as {value} (a number without a unit is read in {unit}).', {
      value: shown,
      unit: instance.unit_name || instance.unit,
    });
  }
  return t('quizui.answer.read_as', 'Read as {value}.', { value: reading.display });
}

/**
 * The check and reveal buttons. Not a <form>: a sandboxed iframe without allow-forms blocks form
 * submission outright (the submit event never fires), so checking is a button click, and Enter
 * in the answer field.
 */
function itemForm(session: QuizSession, item: PreparedItem, fieldset: HTMLElement): HTMLElement {
  const { t } = session;
  const form = h('div', { className: 'ts-quiz-form' }, fieldset);
  if (session.stateOf(item).status !== 'new') return form;
  const checkOnce = () => {
    if (session.stateOf(item).status === 'new') session.actions.check(item);
  };
  const check = h(
    'button',
    { type: 'button', className: 'ts-quiz-button ts-quiz-button-primary', 'data-action': 'check' },
    t('quizui.action.check', 'Check answer'),
  );
  check.addEventListener('click', checkOnce);
  const reveal = h(
    'button',
    { type: 'button', className: 'ts-quiz-button ts-quiz-button-quiet', 'data-action': 'reveal' },
    t('quizui.action.reveal', 'Show solution'),
  );
  reveal.addEventListener('click', () => session.actions.reveal(item));
  form.append(h('div', { className: 'ts-quiz-actions' }, check, reveal));
  form.querySelector<HTMLInputElement>('.ts-quiz-text-input')?.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' || event.isComposing) return;
    event.preventDefault();
    checkOnce();
  });
  return form;
}

export function renderItem(session: QuizSession, item: PreparedItem): HTMLLIElement {
  const { t } = session;
  const index = session.itemIndex.get(item.id) ?? -1;
  const state = session.stateOf(item);
  const view = session.viewOf(item);
  const instance = view.instance;
  const id: ItemIds = (name) => session.uid(`${item.practice ? 'practice' : index}-${name}`);
  const li = h('li', {
    className: `ts-quiz-item ts-quiz-status-${state.status}`,
    'data-item-id': item.id,
    'data-status': state.status,
    'data-seed': String(state.seed),
    'data-kind': item.kind,
  });
  if (!instance) {
    li.append(
      h(
        'p',
        { className: 'ts-quiz-notice ts-quiz-notice-error' },
        t('quizui.item.not_prepared', 'Question {number} could not be prepared by the engine, so it is skipped.', {
          number: session.count(index + 1),
        }),
      ),
    );
    return li;
  }
  const legend = h(
    'legend',
    { className: 'ts-quiz-legend', id: id('legend'), tabindex: '-1' },
    h(
      'span',
      { className: 'ts-quiz-number' },
      item.practice
        ? t('quizui.practice.question', 'Practice question')
        : t('quizui.item.number', 'Question {number} of {total}', {
            number: session.count(index + 1),
            total: session.count(session.items.length),
          }),
    ),
    h('span', { className: 'ts-quiz-prompt' }, instance.prompt),
  );
  const hint = h(
    'p',
    { className: 'ts-quiz-hint', id: id('hint') },
    item.numeric ? numericHint(session, item, instance) : kindHint(t, item.kind),
  );
  const inputError = h('p', { className: 'ts-quiz-input-error', id: id('error'), hidden: true });
  const fieldset = h('fieldset', { className: 'ts-quiz-fieldset', 'aria-describedby': id('hint') }, legend, hint);
  if (item.numeric) fieldset.append(numericAnswer(session, item, instance, view, id, inputError));
  else fieldset.append(choiceOptions(session, item, instance, view, id), inputError);
  li.append(itemForm(session, item, fieldset));
  if (state.status !== 'new') li.append(renderFeedback(session, item, index, instance, view));
  return li;
}

/** The learner's answer as the question's inputs hold it. */
export function readAnswer(item: PreparedItem, li: HTMLElement): Answer {
  if (item.numeric) {
    const input = li.querySelector<HTMLInputElement>('.ts-quiz-text-input');
    return { text: input?.value ?? '' };
  }
  const checked = Array.from(li.querySelectorAll<HTMLInputElement>('.ts-quiz-choice-input')).filter((input) => input.checked);
  return { choices: checked.map((input) => input.value) };
}

/** Hides a check's message once the learner types again (issue 33: one hint at a time). */
function hideInputError(li: HTMLElement | null): void {
  const error = li?.querySelector<HTMLElement>('.ts-quiz-input-error');
  if (!error || error.hidden) return;
  error.hidden = true;
  error.textContent = '';
  li?.querySelectorAll('.ts-quiz-text-input').forEach((input) => input.removeAttribute('aria-invalid'));
}

export function showInputError(session: QuizSession, li: HTMLElement, message: string): void {
  const error = li.querySelector<HTMLElement>('.ts-quiz-input-error');
  if (!error) return;
  error.textContent = message;
  error.hidden = false;
  // One hint at a time: the check's message replaces the live reading of the same text.
  const readAs = li.querySelector<HTMLElement>('.ts-quiz-read-as');
  if (readAs) readAs.textContent = '';
  const inputs = li.querySelectorAll<HTMLInputElement>('.ts-quiz-text-input, .ts-quiz-choice-input');
  inputs.forEach((input) => input.setAttribute('aria-invalid', 'true'));
  const target =
    li.querySelector<HTMLInputElement>('.ts-quiz-text-input') ??
    li.querySelector<HTMLInputElement>('.ts-quiz-choice-input:checked') ??
    inputs[0];
  // The text field already names the error through aria-describedby; radios get it announced.
  target?.focus();
  session.announce(message);
}
