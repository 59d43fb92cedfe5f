// The model picker at the top: lesson stories, preset or size, and the engine's summary of the model.

import { selectControl } from '../controls/controls';
import { h, setFigure, setText } from '../dom/dom';
import type { Engine } from '../engine/engine';
import type { Story } from '../engine/types';
import type { Translate } from '../i18n/i18n';
import type { SectionContext, SectionView } from './context';

export const MODEL_PARAMS = 'model.params';
export const MODEL_PRESET = 'model.preset';
export const ANY_SIZE = '__params';
export const FROM_CONFIG = '__config';

/**
 * A model select's "your config" entry: chosen only while a config's model is on screen, and then
 * named after it ("Your model: Mistral 7B"), as a shared link names it.
 */
export function syncConfigOption(
  t: Translate,
  select: HTMLSelectElement,
  model: { preset?: string; architecture?: unknown; name?: string },
): void {
  const option = [...select.options].find((entry) => entry.value === FROM_CONFIG);
  if (!option) return;
  const fromConfig = model.architecture !== undefined && !model.preset;
  if (option.disabled !== !fromConfig) option.disabled = !fromConfig;
  const text = fromConfig
    ? t('page.your_model', 'Your model: {name}', { name: model.name ?? t('page.your_model_unnamed', 'your model') })
    : t('model.from_config', 'Your config.json (paste below)');
  if (option.textContent !== text) option.textContent = text;
  if (fromConfig && select.value !== FROM_CONFIG) select.value = FROM_CONFIG;
}

/** "Start from the lesson": one button per story (the engine's), each loading its scenario and landing on its part. */
export function storyButtons(context: SectionContext, stories: readonly Story[]): HTMLElement {
  const { t } = context;
  return h(
    'div',
    { className: 'ts-stories', role: 'group', 'aria-label': t('model.stories_label', 'Start from the lesson') },
    h('span', { className: 'ts-stories-label' }, t('model.stories', 'Start from the lesson:')),
    stories.map((story) =>
      h(
        'button',
        {
          type: 'button',
          className: 'ts-button',
          title: story.source,
          'data-story': story.id,
          onclick: () => context.story(story),
        },
        story.label,
      ),
    ),
  );
}

/** The model: a preset, any size, or a config read below; and the engine's one-line summary of it. */
export function modelPicker(context: SectionContext, engine: Pick<Engine, 'presets'>): SectionView & { presetSelect: HTMLSelectElement } {
  const { t } = context;
  const { formatCount, formatInteger } = context.units;
  const presetChoices = [
    ...engine.presets.map((preset) => ({ value: preset.id, label: preset.name })),
    { value: ANY_SIZE, label: t('model.any_size', 'Any size (slider below)') },
    { value: FROM_CONFIG, label: t('model.from_config', 'Your config.json (paste below)') },
  ];
  const presetControl = context.add(selectControl(MODEL_PRESET, t('model.label', 'Model'), presetChoices, context.onValue));
  const configOption = [...presetControl.select.options].find((option) => option.value === FROM_CONFIG);
  if (configOption) configOption.disabled = true;
  const paramsControl = context.range({
    path: MODEL_PARAMS,
    label: t('model.params', 'Parameters'),
    hint: t('model.params_hint', 'Moving this slider uses a typical Llama-like shape for the chosen size.'),
    formatField: (value) => formatCount(value, { short: true, significant: 4 }),
    describe: (value) => context.units.formatParameters(value),
    fieldLabel: t('model.params_field', 'Parameters, exact number (e.g. 70B or 7e9)'),
  });

  const params = h('strong', { 'data-figure': 'params' });
  const rest = h('span');
  const summary = h('p', { className: 'ts-model-summary', 'aria-live': 'off' }, params, rest);
  const update: SectionView['update'] = ({ estimate }) => {
    const assumed = estimate.architecture?.assumed ? t('model.shape_assumed', ' (shape assumed: Llama-like)') : '';
    const active =
      estimate.active_params !== estimate.params
        ? t('model.active', ', {count} active per token', { count: formatCount(estimate.active_params) })
        : '';
    const a = estimate.architecture;
    const experts =
      a && a.experts > 1
        ? t('model.experts', ', {experts} experts ({per_token} per token)', {
            experts: formatInteger(a.experts),
            per_token: formatInteger(a.experts_per_token),
          })
        : '';
    const shape = a
      ? t('model.shape', '{layers} layers, hidden size {hidden}, {heads} heads ({kv_heads} key/value), vocabulary {vocab}{experts}', {
          layers: formatInteger(a.layers),
          hidden: formatInteger(a.hidden),
          heads: formatInteger(a.heads),
          kv_heads: formatInteger(a.kv_heads),
          vocab: formatInteger(a.vocab),
          experts,
        })
      : '';
    setFigure(params, t('model.params_value', '{count} parameters', { count: formatCount(estimate.params) }), estimate.params);
    setText(rest, `${active}${assumed}${shape ? ` · ${shape}` : ''}`);
  };

  const element = h(
    'div',
    { className: 'ts-model-picker' },
    h('div', { className: 'ts-model-controls' }, presetControl.element, paramsControl.element),
    summary,
  );
  return { element, update, presetSelect: presetControl.select };
}

/**
 * The model picker as a section of its own, at the top, for a widget whose lesson path does not
 * open with the run-vs-train part (which holds the picker under its figure): the stories, the
 * picker, and what belongs under it (`below`: the engine's notes and the scenario's problems).
 */
export function modelSection(
  context: SectionContext,
  engine: Pick<Engine, 'presets' | 'stories'>,
  below: HTMLElement[],
): SectionView & { presetSelect: HTMLSelectElement } {
  const { t } = context;
  const picker = modelPicker(context, engine);
  const element = h(
    'section',
    { className: 'ts-section ts-model', 'aria-label': t('model.label', 'Model') },
    storyButtons(context, engine.stories),
    picker.element,
    below,
  );
  return { element, update: picker.update, presetSelect: picker.presetSelect };
}
