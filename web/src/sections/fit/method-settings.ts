// The training method's own settings under "Your goal" (docs/model.md §15–16): LoRA's rank, the
// matrices it adapts and how the frozen base is stored (shown for LoRA and QLoRA only, QLoRA
// offering the NF4 storages the engine marks), and offload to CPU memory for every method. Every
// choice, hint and limit is the engine's; the fields round-trip through the address as any other.

import { choiceLabel, radioControl, type Control } from '../../controls/controls';
import { h, setHidden, uniqueId } from '../../dom/dom';
import { setField } from '../../engine/scenario';
import type { PageView, SectionContext } from '../context';

const TARGETS = 'training.lora.targets';

/** One checkbox per matrix LoRA may adapt; the field is the list of those checked. */
function targetsControl(context: SectionContext): Control {
  const inputs: HTMLInputElement[] = [];
  const error = h('p', { className: 'ts-field-error', id: uniqueId('error') });
  error.hidden = true;
  const items = context.choices(TARGETS).map((choice) => {
    const input = h('input', { type: 'checkbox', value: String(choice.value), 'aria-describedby': error.id });
    input.addEventListener('change', () =>
      context.onValue(
        TARGETS,
        inputs.filter((box) => box.checked).map((box) => box.value),
      ),
    );
    inputs.push(input);
    return choiceLabel(input, choice);
  });
  const element = h(
    'fieldset',
    { className: 'ts-control ts-radios ts-fit-targets', 'data-field': TARGETS },
    h('legend', { className: 'ts-label' }, context.t('fit.inputs.targets', 'Matrices with adapters')),
    h('div', { className: 'ts-choices' }, items),
    error,
  );
  return {
    path: TARGETS,
    element,
    sync(value) {
      const checked = Array.isArray(value) ? value : [];
      for (const input of inputs) if (input.checked !== checked.includes(input.value)) input.checked = checked.includes(input.value);
    },
    setError(message) {
      error.hidden = message === null;
      error.textContent = message ?? '';
    },
  };
}

export function methodSettings(context: SectionContext): { element: HTMLElement; update(view: PageView): void } {
  const { t } = context;
  const { formatInteger } = context.units;
  const radios = (path: string, legend: string, onValue = context.onValue) =>
    context.add(
      radioControl(
        path,
        legend,
        context.choices(path).map((choice) => ({ value: String(choice.value), label: choice.label, hint: choice.hint })),
        onValue,
      ),
    ).element;
  const base = radios('training.lora.base', t('fit.inputs.base', 'The frozen base, stored in'));
  const qloraBases = new Set(
    context
      .choices('training.lora.base')
      .filter((choice) => choice.qlora)
      .map((choice) => String(choice.value)),
  );
  const lora = h(
    'div',
    { className: 'ts-fit-lora' },
    context.range({
      path: 'training.lora.rank',
      label: t('fit.inputs.rank', 'LoRA rank r'),
      formatField: (v) => formatInteger(v),
      describe: (v) => t('fit.inputs.rank_value', 'rank {rank}', { rank: formatInteger(v) }),
    }).element,
    context.add(targetsControl(context)).element,
    base,
  );
  // Offload needs a ZeRO stage (the engine's choice says which): the change brings it along, as the fit search's does.
  let zeroStage = 0;
  const offload = radios('training.offload', t('fit.inputs.offload', 'Offload to CPU memory'), (path, value) => {
    const least = context.choices(path).find((choice) => choice.value === value)?.zero_stage ?? 0;
    context.change((overrides) => {
      const next = setField(overrides, path, value);
      return zeroStage < least ? setField(next, 'parallel.zero_stage', least) : next;
    });
  });
  return {
    element: h('div', null, lora, offload),
    update({ scenario }) {
      zeroStage = scenario.parallel.zero_stage;
      const method = scenario.training.method ?? 'full';
      setHidden(lora, method === 'full');
      for (const input of base.querySelectorAll('input'))
        setHidden(input.parentElement as HTMLElement, method === 'qlora' && !qloraBases.has(input.value));
    },
  };
}
