// The global batch's slider (issue 33): it starts at "the fewest" (0), the sequences the engine
// resolves that to for the layout on screen (`training.fewest_global_batch`), and goes on in
// doublings of it up to the engine's slider maximum. A smaller global batch is rounded up to the
// fewest, so positions below it would change nothing.

import type { SliderScale } from '../controls/sliders';
import type { Estimate } from '../engine/types';
import type { SectionContext } from './context';

const PATH = 'training.global_batch';

/** "the fewest", then fewest × 2, × 4, … up to `max`. */
function stopsFrom(fewest: number, max: number): number[] {
  const stops = [0];
  for (let value = fewest * 2; value <= max; value *= 2) stops.push(value);
  return stops;
}

export function globalBatchControl(context: SectionContext) {
  const { t } = context;
  const max = context.units.fieldLimit(PATH)?.slider?.max ?? 1;
  let fewest = 1;
  let stops = stopsFrom(fewest, max);
  const scale: SliderScale = {
    // The range input's max is read once; update() rewrites it as the stops change.
    steps: stops.length - 1,
    valueAt: (position) => stops[Math.min(stops.length - 1, Math.max(0, Math.round(position)))],
    positionOf: (value) => {
      if (!(value > fewest)) return 0;
      // The nearest stop on a log scale.
      let best = 1;
      for (let index = 1; index < stops.length; index += 1)
        if (Math.abs(Math.log(value / stops[index])) < Math.abs(Math.log(value / stops[best]))) best = index;
      return best;
    },
  };
  const control = context.range({
    path: PATH,
    label: t('activations.global_batch', 'Global batch (sequences per optimizer step; 0: the fewest)'),
    formatField: context.units.formatInteger,
    describe: (v) => (v === 0 ? t('activations.global_batch_fewest', 'the fewest micro-batches') : context.units.formatSequences(v)),
    scale,
  });
  const range = control.element.querySelector<HTMLInputElement>('input[type="range"]');
  return {
    element: control.element,
    update(estimate: Estimate) {
      const least = estimate.training.fewest_global_batch;
      if (!(least > 0) || least === fewest || !range) return;
      fewest = least;
      stops = stopsFrom(fewest, Math.max(max, fewest));
      range.max = String(stops.length - 1);
      const position = String(scale.positionOf(estimate.scenario?.training.global_batch ?? 0));
      if (range.value !== position) range.value = position;
    },
  };
}
