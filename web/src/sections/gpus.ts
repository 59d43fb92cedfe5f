// The GPU count slider: shown in the sharding and the time sections, one scenario field.

import { rangeControl } from '../controls';
import { formatInteger, sliderScale } from '../units';
import type { SectionContext } from './context';

export function gpuControl(context: SectionContext): HTMLElement {
  return context.add(rangeControl({
    path: 'parallel.gpus', label: 'GPUs', scale: sliderScale('parallel.gpus'), formatField: formatInteger, describe: (v) => `${formatInteger(v)} GPUs`,
    fieldLabel: 'GPUs, exact number',
  }, context.onValue)).element;
}
