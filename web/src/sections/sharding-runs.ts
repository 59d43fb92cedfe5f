// "The run as it was": one button per published training run the engine's presets carry, each
// loading the run's own scenario (its model, GPUs, layout, sequence and batch), and a line naming
// the run on screen and its source.

import { h, setAttribute, setHidden, setText } from '../dom/dom';
import { clone, getField } from '../engine/scenario';
import type { Preset, Scenario, TrainingRun } from '../engine/types';
import type { PageView, SectionContext } from './context';

/** The fields that make a run's layout: when the scenario on screen has the run's values for all of them, the run is on screen. */
const LAYOUT_FIELDS = [
  'model.preset',
  'parallel.gpus',
  'parallel.tensor',
  'parallel.pipeline',
  'parallel.context',
  'parallel.expert',
  'training.sequence',
  'hardware.gpu',
];

function isOnScreen(run: TrainingRun, scenario: Scenario): boolean {
  return LAYOUT_FIELDS.every((path) => {
    const wanted = getField(run.scenario, path);
    return wanted === undefined || wanted === getField(scenario, path);
  });
}

export function runLoader(context: SectionContext, presets: readonly Preset[]) {
  const { t } = context;
  const runs = presets.flatMap((preset) => (preset.runs ?? []).map((run) => ({ preset, run })));
  const buttons = runs.map(({ preset, run }) =>
    h(
      'button',
      {
        type: 'button',
        className: 'ts-button ts-run',
        'aria-pressed': 'false',
        'data-run': `${preset.id}/${run.id}`,
        onclick: () => context.change(() => clone(run.scenario)),
      },
      t('runs.button', '{model}: {run}', { model: preset.name, run: run.name }),
    ),
  );
  const onScreen = h('p', { className: 'ts-run-source', 'aria-live': 'polite' });
  const element = h(
    'div',
    { className: 'ts-runs', role: 'group', 'aria-label': t('runs.label', 'Load a published run as it was laid out') },
    h('p', { className: 'ts-runs-label' }, t('runs.title', 'Load a published run as it was laid out:')),
    h('div', { className: 'ts-runs-buttons' }, buttons),
    onScreen,
  );
  setHidden(element, runs.length === 0);

  function update({ scenario }: PageView): void {
    const current = runs.findIndex(({ run }) => isOnScreen(run, scenario));
    buttons.forEach((button, index) => setAttribute(button, 'aria-pressed', String(index === current)));
    setHidden(onScreen, current < 0);
    if (current < 0) return;
    const { preset, run } = runs[current];
    setAttribute(onScreen, 'data-run', `${preset.id}/${run.id}`);
    setText(
      onScreen,
      run.note
        ? t('runs.on_screen_note', 'On screen: {model}, {run}. Source: {source}. Approximated: {note}', {
            model: preset.name,
            run: run.name,
            source: run.source,
            note: run.note,
          })
        : t('runs.on_screen', 'On screen: {model}, {run}. Source: {source}', { model: preset.name, run: run.name, source: run.source }),
    );
  }
  return { element, update };
}
