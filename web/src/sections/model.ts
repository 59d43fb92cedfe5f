// The model picker at the top: lesson stories, preset or size, and the engine's summary of the model.

import { rangeControl, selectControl } from '../controls';
import { h, setText } from '../dom';
import type { Engine } from '../engine';
import { setFigure } from '../figures';
import { clone } from '../scenario';
import { STORIES } from '../stories';
import { formatCount, formatInteger, sliderScale } from '../units';
import type { SectionContext, SectionView } from './context';

export const MODEL_PARAMS = 'model.params';
export const MODEL_PRESET = 'model.preset';
export const ANY_SIZE = '__params';
export const FROM_CONFIG = '__config';

export function modelSection(context: SectionContext, engine: Engine, below: HTMLElement[]): SectionView & { presetSelect: HTMLSelectElement } {
  const presetChoices = [
    ...engine.presets.map((preset) => ({ value: preset.id, label: preset.name })),
    { value: ANY_SIZE, label: 'Any size (slider below)' },
    { value: FROM_CONFIG, label: 'Your config.json (paste below)' },
  ];
  const presetControl = context.add(selectControl(MODEL_PRESET, 'Model', presetChoices, context.onValue));
  const configOption = [...presetControl.select.options].find((option) => option.value === FROM_CONFIG);
  if (configOption) configOption.disabled = true;
  const paramsControl = context.add(rangeControl({
    path: MODEL_PARAMS,
    label: 'Parameters',
    hint: 'Moving this slider uses a typical Llama-like shape for the chosen size.',
    scale: sliderScale('model.params'),
    formatField: (value) => formatCount(value, { short: true, significant: 4 }),
    describe: (value) => `${formatCount(value)} parameters`,
    fieldLabel: 'Parameters, exact number (e.g. 70B or 7e9)',
  }, context.onValue));

  const stories = h('div', { className: 'ts-stories', role: 'group', 'aria-label': 'Start from the lesson' },
    h('span', { className: 'ts-stories-label' }, 'Start from the lesson:'),
    STORIES.map((story) => h('button', {
      type: 'button', className: 'ts-button', title: story.source, 'data-story': story.id,
      onclick: () => context.change(() => clone(story.scenario)),
    }, story.label)));

  const params = h('strong', { 'data-figure': 'params' });
  const rest = h('span');
  const summary = h('p', { className: 'ts-model-summary', 'aria-live': 'off' }, params, rest);
  const update: SectionView['update'] = (estimate) => {
    const assumed = estimate.architecture?.assumed ? ' (shape assumed: Llama-like)' : '';
    const active = estimate.active_params !== estimate.params ? `, ${formatCount(estimate.active_params)} active per token` : '';
    const a = estimate.architecture;
    const shape = a ? `${formatInteger(a.layers)} layers, hidden size ${formatInteger(a.hidden)}, ${formatInteger(a.heads)} heads (${formatInteger(a.kv_heads)} key/value), vocabulary ${formatInteger(a.vocab)}${a.experts > 1 ? `, ${a.experts} experts (${a.experts_per_token} per token)` : ''}` : '';
    setFigure(params, `${formatCount(estimate.params)} parameters`, estimate.params);
    setText(rest, `${active}${assumed}${shape ? ` · ${shape}` : ''}`);
  };

  const element = h('section', { className: 'ts-section ts-model', 'aria-label': 'Model' },
    stories,
    h('div', { className: 'ts-model-controls' }, presetControl.element, paramsControl.element),
    summary, below);
  return { element, update, presetSelect: presetControl.select };
}
