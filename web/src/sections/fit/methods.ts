// Full training, LoRA and QLoRA side by side for the same model and GPUs (docs/model.md §15): each
// column is the engine's estimate with that method: its peak per GPU, where the memory goes, the
// base's bytes per parameter and the parameters trained.

import { h, replace, setAttribute, setClass, setFigure, setText } from '../../dom/dom';
import type { FineTuningMethod } from '../../engine/fit';
import type { Scenario } from '../../engine/types';
import type { PartKey } from '../../figures/parts';
import type { SectionContext } from '../context';

/** The memory's kinds a column lists, in the lesson's colours (figures/parts.ts). */
const KINDS: ReadonlyArray<keyof FineTuningMethod['per_gpu'] & PartKey> = [
  'weights',
  'gradients',
  'master_weights',
  'optimizer_states',
  'activations',
];

function row(label: string, value: HTMLElement, key?: string): HTMLElement {
  return h('div', { className: 'ts-fit-method-row', 'data-part': key }, h('dt', null, label), h('dd', null, value));
}

function methodColumn(context: SectionContext, method: FineTuningMethod, use: (scenario: Scenario) => void): HTMLElement {
  const { t, parts } = context;
  const { formatBytes, formatCount, formatNumber, formatDuration } = context.units;
  const figure = (text: string, value: number, name?: string) => {
    const strong = h('strong', name ? { 'data-figure': name } : null);
    setFigure(strong, text, value);
    return strong;
  };
  const verdict = method.fits
    ? t('fit.methods.fits', 'fits: {peak} of {memory} per GPU', {
        peak: formatBytes(method.peak_bytes),
        memory: formatBytes(method.memory_bytes),
      })
    : t('fit.methods.no_fit', 'does not fit: {peak} of {memory} per GPU', {
        peak: formatBytes(method.peak_bytes),
        memory: formatBytes(method.memory_bytes),
      });
  const column = h(
    'div',
    { className: 'ts-fit-method', 'data-method': method.method, 'data-fits': String(method.fits), 'data-peak': String(method.peak_bytes) },
    h(
      'p',
      { className: 'ts-fit-method-name' },
      method.label,
      method.current ? h('span', { className: 'ts-fit-current' }, t('fit.methods.current', 'on screen')) : null,
    ),
    h('p', { className: method.fits ? 'ts-fit-yes' : 'ts-fit-no' }, verdict),
    h(
      'dl',
      { className: 'ts-fit-method-parts' },
      KINDS.map((key) => row(parts[key], figure(formatBytes(method.per_gpu[key]), method.per_gpu[key]), key)),
      method.per_gpu.other > 0
        ? row(t('fit.methods.other', 'other (logits, buffers)'), figure(formatBytes(method.per_gpu.other), method.per_gpu.other))
        : null,
      row(
        t('fit.methods.base_bytes', 'base bytes per parameter'),
        figure(formatNumber(method.base_bytes_per_param), method.base_bytes_per_param),
      ),
      row(
        t('fit.methods.trainable', 'parameters trained'),
        figure(formatCount(method.trainable_params, { short: true, significant: 3 }), method.trainable_params),
      ),
      // Every method on the same tokens (the engine's), stated once in the hint above.
      // Timed as the layouts are: at the utilisation the engine predicts for this layout (issue 33).
      row(
        t('fit.methods.run_time_predicted', 'run time at the predicted {percent} utilisation', {
          percent: context.units.formatPercent(method.predicted_mfu),
        }),
        figure(formatDuration(method.run_seconds), method.run_seconds, 'fit-method-time'),
      ),
    ),
  );
  if (!method.current)
    column.append(
      h(
        'button',
        { type: 'button', className: 'ts-button ts-button-quiet ts-fit-use', onclick: () => use(method.scenario) },
        t('fit.methods.use', 'Use {method}', { method: method.label }),
      ),
    );
  return column;
}

export interface MethodsView {
  readonly element: HTMLElement;
  update(methods: readonly FineTuningMethod[]): void;
}

export function methodsFigure(context: SectionContext, use: (scenario: Scenario) => void): MethodsView {
  const { t } = context;
  const heading = h(
    context.headingTag(2),
    { className: 'ts-fit-subtitle' },
    t('fit.methods.heading', 'Full training, LoRA and QLoRA side by side'),
  );
  const hint = h('p', { className: 'ts-hint' });
  const columns = h('div', { className: 'ts-fit-methods' });
  const element = h('div', { className: 'ts-fit-methods-figure', 'data-figure': 'fit-methods' }, heading, hint, columns);
  return {
    element,
    update(methods) {
      const fitting = methods.filter((method) => method.fits).map((method) => method.method);
      setText(
        hint,
        t(
          'fit.methods.same_run',
          'The same model, GPUs, layout and {tokens} for all three. LoRA freezes the base and trains small adapters: no gradients or optimizer states for the base. QLoRA also stores the base in 4 bits.',
          { tokens: context.units.formatTokens(methods[0]?.tokens ?? 0) },
        ),
      );
      setAttribute(element, 'data-value', fitting.join(' '));
      setClass(element, 'ts-fit-none', fitting.length === 0);
      replace(
        columns,
        methods.map((method) => methodColumn(context, method, use)),
      );
    },
  };
}
