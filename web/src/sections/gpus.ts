// The GPU count slider: shown in the sharding and the time sections, one scenario field.

import type { SectionContext } from './context';

export function gpuControl(context: SectionContext): HTMLElement {
  const { t } = context;
  const { formatInteger } = context.units;
  return context.range({
    path: 'parallel.gpus',
    label: t('controls.gpus', 'GPUs'),
    formatField: formatInteger,
    describe: (v) => t('controls.gpus_value', '{count} GPUs', { count: formatInteger(v) }),
    fieldLabel: t('controls.gpus_field', 'GPUs, exact number'),
  }).element;
}
