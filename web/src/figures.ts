// Figure builders: each takes engine figures and returns DOM. Positions and widths are
// geometry (a value's share of the axis); every number printed is an engine value, formatted.

import { h } from './dom';
import { formatBytes, formatDuration, SECONDS_PER } from './format';

export interface Part {
  /** Also the CSS class suffix: one colour and one pattern per component, everywhere. */
  key: PartKey;
  label: string;
  value: number;
  detail?: string;
}

export type PartKey = 'weights' | 'kv_cache' | 'gradients' | 'master_weights' | 'optimizer_states' | 'activations' | 'logits';

export const PART_LABELS: Record<PartKey, string> = {
  weights: 'Weights',
  kv_cache: 'KV cache',
  gradients: 'Gradients',
  master_weights: 'FP32 master copy',
  optimizer_states: 'Optimizer states',
  activations: 'Activations',
  logits: 'Logits',
};

function percent(value: number, max: number): string {
  if (!(max > 0) || !(value > 0)) return '0%';
  return `${Math.min(100, (value / max) * 100).toFixed(3)}%`;
}

export interface Marker {
  value: number;
  label: string;
}

/** A horizontal stacked bar on a linear axis from 0 to `max`, with optional vertical markers. */
export function stackedBar(parts: Part[], max: number, options: { markers?: Marker[]; label: string; markerLabels?: boolean }): HTMLElement {
  const track = h('div', { className: 'ts-bar-track' },
    parts.filter((part) => part.value > 0).map((part) =>
      h('span', { className: `ts-seg ts-part-${part.key}`, style: { width: percent(part.value, max) }, title: `${part.label}: ${formatBytes(part.value)}` })));
  for (const marker of options.markers ?? []) {
    const flip = max > 0 && marker.value / max > 0.6;
    track.appendChild(h('span', { className: `ts-marker${flip ? ' ts-marker-flip' : ''}`, style: { left: percent(marker.value, max) } },
      options.markerLabels === false ? null : h('span', { className: 'ts-marker-label' }, marker.label)));
  }
  return h('div', { className: 'ts-bar', role: 'img', 'aria-label': options.label }, track);
}

export interface ShardPart {
  key: PartKey;
  label: string;
  /** The whole model's bytes of this component (all GPUs together). */
  whole: number;
  /** What one GPU keeps of it. */
  mine: number;
}

/**
 * The whole model's states as one bar, each component showing the share one GPU keeps: a full
 * copy stays bright; a sharded component fades except for that GPU's own slice (outlined), with
 * faint lines where the other GPUs' slices begin when there are few enough to draw.
 */
export function shardBar(parts: ShardPart[], max: number, label: string): HTMLElement {
  const track = h('div', { className: 'ts-bar-track ts-shard-track' },
    parts.filter((part) => part.whole > 0).map((part) => {
      const share = Math.min(1, part.mine / part.whole);
      const sharded = share < 0.999;
      const segment = h('span', { className: `ts-seg ts-part-${part.key}${sharded ? ' ts-seg-sharded' : ''}`, style: { width: percent(part.whole, max) }, title: `${part.label}: ${formatBytes(part.whole)} in all, ${formatBytes(part.mine)} on each GPU` });
      if (sharded) {
        const veil = h('span', { className: 'ts-shard-veil' });
        if (share >= 1 / 64) veil.style.setProperty('--ts-slice', `${(share * 100).toFixed(4)}%`);
        else veil.classList.add('ts-shard-veil-dense');
        segment.append(veil, h('span', { className: 'ts-shard-mine', style: { width: `max(3px, ${(share * 100).toFixed(4)}%)` } }));
      }
      return segment;
    }));
  return h('div', { className: 'ts-bar', role: 'img', 'aria-label': label }, track);
}

/** Legend rows: swatch (colour and pattern), name, value, and a detail such as bytes per parameter. */
export function legend(parts: Part[], options: { caption?: string } = {}): HTMLElement {
  return h('ul', { className: 'ts-legend', 'aria-label': options.caption ?? 'Legend' },
    parts.map((part) => h('li', { className: 'ts-legend-item' },
      h('span', { className: `ts-swatch ts-part-${part.key}`, 'aria-hidden': 'true' }),
      h('span', { className: 'ts-legend-name' }, part.label),
      h('span', { className: 'ts-legend-value', 'data-value': String(part.value) }, formatBytes(part.value)),
      part.detail ? h('span', { className: 'ts-legend-detail' }, part.detail) : null)));
}

/** About five round tick values from 0 to max (1, 2 or 5 × a power of ten apart). */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0)) return [0];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= rough) ?? 10 * power;
  const ticks: number[] = [];
  for (let index = 0; index * step <= max * 1.0001; index += 1) ticks.push(index * step);
  return ticks;
}

/** A linear byte axis under stacked bars. */
export function byteAxis(max: number, narrow: boolean): HTMLElement {
  const ticks = niceTicks(max, narrow ? 3 : 5);
  return h('div', { className: 'ts-axis', 'aria-hidden': 'true' },
    ticks.map((tick) => h('span', { className: `ts-tick${tick / max > 0.92 ? ' ts-tick-end' : ''}`, style: { left: percent(tick, max) } }, tick === 0 ? '0' : formatBytes(tick, 3))));
}

/** Named marks for a log time axis. */
const TIME_MARKS: Array<[number, string]> = [
  [1, '1 second'], [SECONDS_PER.minute, '1 minute'], [SECONDS_PER.hour, '1 hour'], [SECONDS_PER.day, '1 day'],
  [7 * SECONDS_PER.day, '1 week'], [SECONDS_PER.year / 12, '1 month'], [SECONDS_PER.year, '1 year'],
  [10 * SECONDS_PER.year, '10 years'], [100 * SECONDS_PER.year, '100 years'], [1000 * SECONDS_PER.year, '1,000 years'],
  [1e4 * SECONDS_PER.year, '10,000 years'], [1e5 * SECONDS_PER.year, '100,000 years'], [1e6 * SECONDS_PER.year, '1 million years'],
  [1e7 * SECONDS_PER.year, '10 million years'], [1e8 * SECONDS_PER.year, '100 million years'],
];

export interface TimePoint {
  seconds: number;
  label: string;
  kind: 'one' | 'cluster';
}

/** Two times on one log axis: one GPU against the whole cluster. */
export function timeAxis(points: TimePoint[], caption: string): HTMLElement {
  const logs = points.filter((p) => p.seconds > 0).map((p) => Math.log10(p.seconds));
  const low = Math.floor(Math.min(...logs) - 0.6);
  const high = Math.ceil(Math.max(...logs) + 0.6);
  const position = (seconds: number) => `${(((Math.log10(seconds) - low) / (high - low)) * 100).toFixed(3)}%`;
  const marks = TIME_MARKS.filter(([seconds]) => Math.log10(seconds) >= low && Math.log10(seconds) <= high);
  // Skip marks that would crowd each other (less than 8% of the axis apart).
  const shown: Array<[number, string]> = [];
  for (const mark of marks) {
    const last = shown[shown.length - 1];
    if (!last || (Math.log10(mark[0]) - Math.log10(last[0])) / (high - low) > 0.08) shown.push(mark);
  }
  const sorted = [...points].sort((a, b) => a.seconds - b.seconds);
  const span = sorted.length === 2 && sorted[0].seconds > 0
    ? h('span', { className: 'ts-time-span', style: { left: position(sorted[0].seconds), width: `calc(${position(sorted[1].seconds)} - ${position(sorted[0].seconds)})` } })
    : null;
  return h('div', { className: 'ts-time', role: 'img', 'aria-label': caption },
    h('div', { className: 'ts-time-track' },
      shown.map(([seconds]) => h('span', { className: 'ts-time-grid', style: { left: position(seconds) } })),
      span,
      points.filter((p) => p.seconds > 0).map((point) =>
        h('span', { className: `ts-time-point ts-time-${point.kind}${(Math.log10(point.seconds) - low) / (high - low) > 0.55 ? ' ts-time-flip' : ''}`, style: { left: position(point.seconds) } },
          h('span', { className: 'ts-time-label' }, h('strong', null, formatDuration(point.seconds)), h('span', null, point.label))))),
    h('div', { className: 'ts-axis ts-axis-log', 'aria-hidden': 'true' },
      shown.map(([seconds, label]) => {
        const share = (Math.log10(seconds) - low) / (high - low);
        return h('span', { className: `ts-tick${share > 0.92 ? ' ts-tick-end' : ''}`, style: { left: position(seconds) } }, label);
      })));
}

/** A row of GPU icons: `count` of them, drawn up to `limit`. */
export function gpuIcons(count: number, limit: number, label: string): HTMLElement {
  const drawn = Math.max(0, Math.min(count, limit));
  const icons: HTMLElement[] = [];
  for (let index = 0; index < drawn; index += 1) icons.push(h('span', { className: 'ts-gpu-icon' }));
  return h('span', { className: 'ts-gpu-icons', role: 'img', 'aria-label': label },
    icons, count > limit ? h('span', { className: 'ts-gpu-more', 'aria-hidden': 'true' }, '…') : null);
}

/** "Why?" on demand: the idea in a sentence or two, the formula, the source. */
export function why(summary: string, paragraphs: Array<string | Node>, formula: string | null, source: string): HTMLElement {
  return h('details', { className: 'ts-why' },
    h('summary', null, summary),
    h('div', { className: 'ts-why-body' },
      paragraphs.map((paragraph) => h('p', null, paragraph)),
      formula ? h('p', { className: 'ts-formula' }, formula) : null,
      h('p', { className: 'ts-source' }, h('span', { className: 'ts-source-label' }, 'Source: '), source)));
}
