// Legend rows for a bar: swatch, name, value and a detail per part.

import { h, setFigure, setHidden, setText, uniqueId } from '../dom/dom';
import type { Formatter, Part, PartKey, PartLabels } from './parts';

/**
 * Legend rows: swatch (colour and pattern), name, value, and a detail such as bytes per parameter.
 * `caption` names the list; with `showCaption` it also heads the list on screen (two legends side
 * by side stack on a phone, and each must still say which bar it explains).
 */
export function legend(
  keys: readonly PartKey[],
  format: Formatter,
  labels: PartLabels,
  caption: string,
  options: { showCaption?: boolean } = {},
): { element: HTMLElement; update(parts: Part[]): void } {
  const rows = keys.map((key) => {
    const value = h('span', { className: 'ts-legend-value' });
    const detail = h('span', { className: 'ts-legend-detail' });
    const item = h(
      'li',
      { className: 'ts-legend-item' },
      h('span', { className: `ts-swatch ts-part-${key}`, 'aria-hidden': 'true' }),
      h('span', { className: 'ts-legend-name' }, labels[key]),
      value,
      detail,
    );
    return { key, value, detail, item };
  });
  const titleId = options.showCaption ? uniqueId('legend') : null;
  const list = h(
    'ul',
    titleId ? { className: 'ts-legend', 'aria-labelledby': titleId } : { className: 'ts-legend', 'aria-label': caption },
    rows.map((row) => row.item),
  );
  const element = titleId
    ? h('div', { className: 'ts-legend-group' }, h('p', { className: 'ts-legend-title', id: titleId }, caption), list)
    : list;
  return {
    element,
    update(parts) {
      for (const row of rows) {
        const part = parts.find((p) => p.key === row.key);
        setHidden(row.item, !part);
        if (!part) continue;
        setFigure(row.value, format(part.value), part.value);
        setText(row.detail, part.detail ?? '');
        setHidden(row.detail, !part.detail);
      }
    },
  };
}
