// The memory section's sentence on offload (docs/model.md §16): what left the GPU for CPU memory,
// the CPU memory a node needs, and the PCIe traffic of one step with its time. Hidden without offload.

import { h, setFigure, setHidden, setText } from '../dom/dom';
import type { Estimate } from '../engine/types';
import type { PartKey } from '../figures/parts';
import { withElements } from '../i18n/i18n';
import type { SectionContext } from './context';

const OFFLOADED: readonly (PartKey & keyof NonNullable<Estimate['training']['offload']>['cpu_per_gpu'])[] = [
  'weights',
  'gradients',
  'master_weights',
  'optimizer_states',
];

export function offloadNote(context: SectionContext): { element: HTMLElement; update(estimate: Estimate): void } {
  const { t, parts } = context;
  const { formatBytes, formatDuration, formatGpus } = context.units;
  const what = h('span', { 'data-figure': 'offload-parts' });
  const perGpu = h('strong', { 'data-figure': 'offload-cpu-per-gpu' });
  const node = h('strong', { 'data-figure': 'offload-cpu-node' });
  const gpus = h('span');
  const toCpu = h('strong', { 'data-figure': 'offload-to-cpu' });
  const toGpu = h('strong', { 'data-figure': 'offload-to-gpu' });
  const seconds = h('strong', { 'data-figure': 'offload-pcie-seconds' });
  const element = h(
    'p',
    { className: 'ts-fine-tuning', 'data-figure': 'offload' },
    withElements(
      t(
        'memory.offload_predicted',
        'Offloaded to CPU memory: {what}, {per_gpu} per GPU, {node} for a node of {gpus}. Each step sends {to_cpu} over PCIe to the CPU and {to_gpu} back, {seconds} per GPU, which the engine’s predicted step time includes (What fits counts it).',
      ),
      { what, per_gpu: perGpu, node, gpus, to_cpu: toCpu, to_gpu: toGpu, seconds },
    ),
  );
  return {
    element,
    update(estimate) {
      const offload = estimate.training.offload;
      const shown = offload !== undefined && offload.mode !== 'none';
      setHidden(element, !shown);
      if (!offload || !shown) return;
      const moved = OFFLOADED.filter((key) => offload.cpu_per_gpu[key] > 0);
      setFigure(what, moved.map((key) => parts[key]).join(', '), moved.length);
      setFigure(perGpu, formatBytes(offload.cpu_per_gpu.total), offload.cpu_per_gpu.total);
      setFigure(node, formatBytes(offload.cpu_bytes_per_node), offload.cpu_bytes_per_node);
      setText(gpus, formatGpus(offload.gpus_per_node));
      setFigure(toCpu, formatBytes(offload.to_cpu_bytes), offload.to_cpu_bytes);
      setFigure(toGpu, formatBytes(offload.to_gpu_bytes), offload.to_gpu_bytes);
      setFigure(seconds, formatDuration(offload.pcie_seconds), offload.pcie_seconds);
    },
  };
}
