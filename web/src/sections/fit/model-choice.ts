// "Your goal"'s model: picking another model keeps "Your GPUs" as the person set them (the GPU,
// its count, their own GPU's memory); a preset brings only its training tokens. When the new model
// cannot keep the split on screen (the engine refuses it), the split returns to the default and a
// notice says what changed. A pasted config is the model here too: the select names it.

import { selectControl } from '../../controls/controls';
import { h, setHidden, setText } from '../../dom/dom';
import type { Engine } from '../../engine/engine';
import { clone, deleteField, getField, setField } from '../../engine/scenario';
import type { PartialScenario } from '../../engine/types';
import type { PageView, SectionContext } from '../context';
import { ANY_SIZE, FROM_CONFIG, MODEL_PRESET, syncConfigOption } from '../model';

/** The split's fields: a model with other layers or heads may refuse them. */
const LAYOUT_FIELDS = [
  'parallel.tensor',
  'parallel.pipeline',
  'parallel.interleave',
  'parallel.context',
  'parallel.expert',
  'parallel.first_stage_layers',
  'parallel.last_stage_layers',
];

type ModelEngine = Pick<Engine, 'presets' | 'estimate'>;

/** The overrides with another model and the GPUs on screen kept; and the layout fields given up, if the model refuses them. */
export function withModelKeepingGpus(
  engine: ModelEngine,
  overrides: PartialScenario,
  view: PageView,
  value: string,
): { next: PartialScenario; dropped: string[] } {
  const model = value === ANY_SIZE ? { params: view.estimate.params } : { preset: value };
  let next: PartialScenario = { ...clone(overrides), model };
  // A preset's tokens are its own run's; a bare size keeps the tokens on screen, as the top picker does.
  next = value === ANY_SIZE ? setField(next, 'training.tokens', view.scenario.training.tokens) : deleteField(next, 'training.tokens');
  next = setField(next, 'hardware.gpu', view.scenario.hardware.gpu);
  next = setField(next, 'parallel.gpus', view.scenario.parallel.gpus);
  const errors = engine.estimate(next).errors ?? [];
  if (!errors.some((error) => error.field.startsWith('parallel.'))) return { next, dropped: [] };
  const dropped = LAYOUT_FIELDS.filter((path) => getField(next, path) !== undefined);
  for (const path of dropped) next = deleteField(next, path);
  return { next, dropped };
}

export function fitModelChoice(context: SectionContext, engine: ModelEngine) {
  const { t } = context;
  const choices = [
    ...engine.presets.map((preset) => ({ value: preset.id, label: preset.name })),
    { value: ANY_SIZE, label: t('model.any_size', 'Any size (slider below)') },
    { value: FROM_CONFIG, label: t('model.from_config', 'Your config.json (paste below)') },
  ];
  let shown: PageView | null = null;
  const notice = h('p', { className: 'ts-hint ts-fit-model-notice', role: 'status', 'data-figure': 'fit-model-notice' });
  setHidden(notice, true);
  const choose = (path: string, value: unknown) => {
    if (value === FROM_CONFIG) return;
    if (!shown) return context.onValue(path, value);
    const view = shown;
    let dropped: string[] = [];
    context.change((overrides) => {
      const answer = withModelKeepingGpus(engine, overrides, view, String(value));
      dropped = answer.dropped;
      return answer.next;
    });
    setText(
      notice,
      dropped.length > 0
        ? t('fit.model_notice.layout', 'This model cannot keep your split of the GPUs, so it went back to the default: {fields}.', {
            fields: dropped.map((path) => path.replace('parallel.', '')).join(', '),
          })
        : '',
    );
    setHidden(notice, dropped.length === 0);
  };
  const control = context.add(selectControl(MODEL_PRESET, t('model.label', 'Model'), choices, choose));
  return {
    element: h('div', null, control.element, notice),
    update(view: PageView) {
      shown = view;
      syncConfigOption(context.t, control.select, view.scenario.model);
    },
  };
}
