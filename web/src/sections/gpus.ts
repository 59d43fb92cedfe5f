// The GPU count slider: shown in the sharding and the time sections, one scenario field.

import { rangeControl } from '../controls';
import { powersOfTwoUpTo, stopScale } from '../sliders';
import { formatInteger } from '../units';
import type { SectionContext } from './context';

export function gpuControl(context: SectionContext): HTMLElement {
  return context.add(rangeControl({
    path: 'parallel.gpus', label: 'GPUs', scale: stopScale(powersOfTwoUpTo(100000)), formatField: formatInteger, describe: (v) => `${formatInteger(v)} GPUs`,
    fieldLabel: 'GPUs, exact number',
  }, context.onValue)).element;
}
