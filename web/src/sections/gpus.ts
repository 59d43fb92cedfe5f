// The GPU count slider: shown in the sharding and the time sections, one scenario field.

import type { SectionContext } from './context';

export function gpuControl(context: SectionContext): HTMLElement {
  const { t } = context;
  const { formatInteger, formatGpus } = context.units;
  return context.range({
    path: 'parallel.gpus',
    label: t('controls.gpus', 'GPUs'),
    formatField: formatInteger,
    // The engine's writing, singular for one ("1 GPU"), as screen readers read the slider's value.
    describe: (v) => formatGpus(v),
    fieldLabel: t('controls.gpus_field', 'GPUs, exact number'),
  }).element;
}
