// Form controls bound to one scenario field each. A control reports the learner's value with
// `onValue`; the app writes it into the scenario, asks the engine, and calls `sync` on every
// control with the new scenario (so two controls on one field, e.g. GPUs in two sections, agree).
// Every control has a visible label, works from the keyboard and shows its own error.

import { h, uniqueId } from '../dom/dom';
import type { ParseResult } from '../engine/units';
import type { SliderScale } from './sliders';

export interface Control {
  /** The scenario field, as the engine names it in errors ("parallel.gpus"). */
  readonly path: string;
  readonly element: HTMLElement;
  sync(value: unknown): void;
  setError(message: string | null): void;
}

type OnValue = (path: string, value: unknown) => void;

function errorSlot(): HTMLParagraphElement {
  const slot = h('p', { className: 'ts-field-error', id: uniqueId('error') });
  slot.hidden = true;
  return slot;
}

function showError(slot: HTMLElement, inputs: HTMLElement[], message: string | null): void {
  // Called for every control on every estimate: touch the DOM only when the message changes.
  if (slot.hidden === (message === null) && (slot.textContent ?? '') === (message ?? '')) return;
  slot.hidden = message === null;
  slot.textContent = message ?? '';
  for (const input of inputs) {
    if (message === null) input.removeAttribute('aria-invalid');
    else input.setAttribute('aria-invalid', 'true');
  }
}

export interface RangeOptions {
  path: string;
  label: string;
  hint?: string;
  scale: SliderScale;
  /** How the exact-value field is read: the engine reads it in `path`'s kind and checks its limits. */
  parse: (text: string) => ParseResult;
  /** How the exact field shows a value ("70.6B", "16,384", "40%"). */
  formatField: (value: number) => string;
  /** What a screen reader hears for the slider ("70.6 billion parameters"). */
  describe: (value: number) => string;
  fieldLabel?: string;
}

/** The slider and its exact field, described by the hint and the error slot. */
function rangeInputs(options: RangeOptions, describedBy: string) {
  const rangeId = uniqueId('range');
  const range = h('input', {
    type: 'range',
    id: rangeId,
    min: 0,
    max: options.scale.steps,
    step: 1,
    className: 'ts-range',
    'aria-describedby': describedBy,
  });
  const field = h('input', {
    type: 'text',
    id: uniqueId('field'),
    className: 'ts-number',
    inputmode: 'decimal',
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-label': options.fieldLabel ?? `${options.label}, exact value`,
    'aria-describedby': describedBy,
  });
  return { rangeId, range, field };
}

/** Whether the learner's caret is in the field (in its document or shadow root). */
function focused(field: HTMLInputElement): boolean {
  return field.ownerDocument.activeElement === field || (field.getRootNode() as Document | ShadowRoot).activeElement === field;
}

/** A slider (log-scaled or through stops) with an exact number field beside it. */
export function rangeControl(options: RangeOptions, onValue: OnValue): Control {
  const { parse } = options;
  const error = errorSlot();
  const hint = options.hint ? h('p', { className: 'ts-hint', id: uniqueId('hint') }, options.hint) : null;
  const { rangeId, range, field } = rangeInputs(options, [hint?.id, error.id].filter(Boolean).join(' '));
  let current = NaN;
  /** The field's text as sync last wrote it; undefined while the learner was typing in it. */
  let shownText: string | undefined;

  range.addEventListener('input', () => {
    const value = options.scale.valueAt(Number(range.value));
    showError(error, [range, field], null);
    onValue(options.path, value);
  });
  field.addEventListener('input', () => {
    const parsed = parse(field.value);
    showError(error, [range, field], parsed.ok ? null : parsed.message);
    if (parsed.ok) onValue(options.path, parsed.value);
  });
  // Leaving the field tidies what was typed ("16384" → "16,384") if it was valid.
  field.addEventListener('change', () => {
    if (parse(field.value).ok && Number.isFinite(current)) field.value = options.formatField(current);
  });

  const element = h(
    'div',
    { className: 'ts-control ts-control-range', 'data-field': options.path },
    h('label', { for: rangeId, className: 'ts-label' }, options.label),
    h('div', { className: 'ts-range-row' }, range, field),
    hint,
    error,
  );

  return {
    path: options.path,
    element,
    sync(value) {
      if (typeof value !== 'number' || !Number.isFinite(value)) return;
      // Every control is synced on every step, and most did not move: leave those untouched
      // (unless the learner left something else in the field, which the value below replaces).
      if (value === current && field.value === shownText) return;
      current = value;
      const position = String(options.scale.positionOf(value));
      if (range.value !== position) range.value = position;
      const valueText = options.describe(value);
      if (range.getAttribute('aria-valuetext') !== valueText) range.setAttribute('aria-valuetext', valueText);
      // Never rewrite the field under the learner's caret.
      shownText = focused(field) ? undefined : options.formatField(value);
      if (shownText !== undefined && field.value !== shownText) field.value = shownText;
    },
    setError(message) {
      showError(error, [range, field], message);
    },
  };
}

export interface Choice<T> {
  value: T;
  label: string;
  hint?: string;
}

/** One option of a row of radio buttons or checkboxes: the input, its label and its hint. */
export function choiceLabel(input: HTMLInputElement, choice: Choice<unknown>): HTMLLabelElement {
  return h(
    'label',
    { className: 'ts-choice' },
    input,
    h(
      'span',
      { className: 'ts-choice-text' },
      h('span', { className: 'ts-choice-label' }, choice.label),
      choice.hint ? h('span', { className: 'ts-choice-hint' }, choice.hint) : null,
    ),
  );
}

/** A row of radio buttons in a fieldset: few options, all visible at once. */
export function radioControl<T extends string | number>(path: string, legend: string, choices: Choice<T>[], onValue: OnValue): Control {
  const name = uniqueId('radio');
  const error = errorSlot();
  const inputs: HTMLInputElement[] = [];
  const items = choices.map((choice) => {
    const input = h('input', { type: 'radio', name, value: String(choice.value), 'aria-describedby': error.id });
    input.addEventListener('change', () => {
      if (input.checked) onValue(path, choice.value);
    });
    inputs.push(input);
    return choiceLabel(input, choice);
  });
  const element = h(
    'fieldset',
    { className: 'ts-control ts-radios', 'data-field': path },
    h('legend', { className: 'ts-label' }, legend),
    h('div', { className: 'ts-choices' }, items),
    error,
  );
  return {
    path,
    element,
    sync(value) {
      const text = String(value);
      for (const input of inputs) {
        const checked = input.value === text;
        if (input.checked !== checked) input.checked = checked;
      }
    },
    setError(message) {
      showError(error, inputs, message);
    },
  };
}

/** A drop-down list: many options (presets, GPU types). */
export function selectControl<T extends string | number>(
  path: string,
  label: string,
  choices: Choice<T>[],
  onValue: OnValue,
  hint?: string,
): Control & { select: HTMLSelectElement } {
  const id = uniqueId('select');
  const error = errorSlot();
  const hintElement = hint ? h('p', { className: 'ts-hint', id: uniqueId('hint') }, hint) : null;
  const select = h(
    'select',
    { id, className: 'ts-select', 'aria-describedby': [hintElement?.id, error.id].filter(Boolean).join(' ') },
    choices.map((choice) => h('option', { value: String(choice.value) }, choice.label)),
  );
  select.addEventListener('change', () => {
    const choice = choices.find((c) => String(c.value) === select.value);
    if (choice) onValue(path, choice.value);
  });
  const element = h(
    'div',
    { className: 'ts-control', 'data-field': path },
    h('label', { for: id, className: 'ts-label' }, label),
    select,
    hintElement,
    error,
  );
  return {
    path,
    element,
    select,
    sync(value) {
      // Synced on every step: most steps leave the choice as it was, and a write re-selects an option.
      const text = String(value);
      if (select.value === text) return;
      for (const option of select.options) {
        if (option.value !== text) continue;
        select.value = text;
        return;
      }
    },
    setError(message) {
      showError(error, [select], message);
    },
  };
}

/** An on/off switch for a boolean field. */
export function checkboxControl(path: string, label: string, onValue: OnValue, hint?: string): Control {
  const error = errorSlot();
  const hintElement = hint ? h('span', { className: 'ts-choice-hint', id: uniqueId('hint') }, hint) : null;
  const input = h('input', { type: 'checkbox', 'aria-describedby': [hintElement?.id, error.id].filter(Boolean).join(' ') });
  input.addEventListener('change', () => onValue(path, input.checked));
  const element = h(
    'div',
    { className: 'ts-control ts-checkbox', 'data-field': path },
    h(
      'label',
      { className: 'ts-choice' },
      input,
      h('span', { className: 'ts-choice-text' }, h('span', { className: 'ts-choice-label' }, label), hintElement),
    ),
    error,
  );
  return {
    path,
    element,
    sync(value) {
      if (input.checked !== (value === true)) input.checked = value === true;
    },
    setError(message) {
      showError(error, [input], message);
    },
  };
}
