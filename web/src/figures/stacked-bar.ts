// A horizontal stacked bar: one segment per part, built once; an update changes widths and titles.

import { h, setAttribute, setClass, setHidden, setStyle, setText } from '../dom/dom';
import { percent, type Formatter, type Part, type PartKey, type PartLabels } from './parts';

export interface Marker {
  value: number;
  label: string;
}

export interface StackedBar {
  element: HTMLElement;
  update(values: Part[], max: number, label: string, marker?: Marker): void;
}

/** A horizontal stacked bar on a linear axis from 0 to `max`, with one segment per key and an optional marker. */
export function stackedBar(
  keys: readonly PartKey[],
  format: Formatter,
  labels: PartLabels,
  options: { marker?: boolean; markerLabel?: boolean } = {},
): StackedBar {
  const segments = keys.map((key) => h('span', { className: `ts-seg ts-part-${key}` }));
  const markerLabel = options.markerLabel === false ? null : h('span', { className: 'ts-marker-label' });
  const marker = options.marker ? h('span', { className: 'ts-marker' }, markerLabel) : null;
  const track = h('div', { className: 'ts-bar-track' }, segments, marker);
  const element = h('div', { className: 'ts-bar', role: 'img' }, track);
  return {
    element,
    update(parts, max, label, markerValue) {
      setAttribute(element, 'aria-label', label);
      keys.forEach((key, index) => {
        const part = parts.find((p) => p.key === key);
        const value = part?.value ?? 0;
        setHidden(segments[index], !(value > 0));
        setStyle(segments[index], 'width', percent(value, max));
        setAttribute(segments[index], 'title', `${labels[key]}: ${format(value)}`);
      });
      if (marker && markerValue) {
        setStyle(marker, 'left', percent(markerValue.value, max));
        // Past the middle the label reads leftwards: either side then has half the track for it (a phone’s is ~290 px).
        setClass(marker, 'ts-marker-flip', max > 0 && markerValue.value / max > 0.5);
        if (markerLabel) setText(markerLabel, markerValue.label);
      }
    },
  };
}
