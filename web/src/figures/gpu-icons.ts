// A row of GPU icons drawn as one SVG pattern.

import { h, setAttribute, setHidden, svg, uniqueId } from '../dom/dom';

/** GPU icons per row, and the icon's size and pitch in CSS pixels (a row of 20 fits a 320 px card). */
const GPU_ICONS_PER_ROW = 20;
const GPU_ICON = { width: 12, height: 16, pitchX: 15, pitchY: 19 } as const;

/**
 * A row of GPU icons: `count` of them, drawn up to `limit`. The icons are one SVG pattern painted
 * over two rectangles (the full rows, then the last row), so a new count changes a few numbers.
 * A pool of icon elements shown and hidden put some forty boxes in and out of layout on every
 * model change: a quarter of the page's layout time per step (bench/README.md).
 */
export function gpuIcons(limit: number): { element: HTMLElement; update(count: number, label: string): void } {
  const { width, height, pitchX, pitchY } = GPU_ICON;
  const patternId = uniqueId('gpu-icon');
  // One chip per GPU: a filled board in the card's colour with a lighter die, so a row reads as
  // "this many GPUs" rather than as missing-glyph boxes.
  const tile = svg(
    'pattern',
    { id: patternId, width: String(pitchX), height: String(pitchY), patternUnits: 'userSpaceOnUse' },
    svg('rect', { class: 'ts-gpu-icon-board', width: String(width), height: String(height), rx: '2' }),
    svg('rect', { class: 'ts-gpu-icon-die', x: '3', y: '4', width: String(width - 6), height: String(height - 8), rx: '1' }),
  );
  const fullRows = svg('rect', { fill: `url(#${patternId})`, x: '0', y: '0', width: '0', height: '0' });
  const lastRow = svg('rect', { fill: `url(#${patternId})`, x: '0', y: '0', width: '0', height: '0' });
  const drawing = svg(
    'svg',
    { 'aria-hidden': 'true', focusable: 'false', width: '0', height: '0', viewBox: '0 0 0 0' },
    svg('defs', {}, tile),
    fullRows,
    lastRow,
  );
  const more = h('span', { className: 'ts-gpu-more', 'aria-hidden': 'true' }, '…');
  const element = h('span', { className: 'ts-gpu-icons', role: 'img' }, drawing, more);
  return {
    element,
    update(count, label) {
      setAttribute(element, 'aria-label', label);
      const drawn = Math.max(0, Math.min(Math.floor(count), limit));
      const full = Math.floor(drawn / GPU_ICONS_PER_ROW);
      const rest = drawn - full * GPU_ICONS_PER_ROW;
      const rows = full + (rest > 0 ? 1 : 0);
      // The last icon's right and bottom edges, not the gap after them.
      const drawingWidth = Math.max(0, Math.min(drawn, GPU_ICONS_PER_ROW) * pitchX - (pitchX - width));
      const drawingHeight = Math.max(0, rows * pitchY - (pitchY - height));
      setAttribute(fullRows, 'width', String(full > 0 ? GPU_ICONS_PER_ROW * pitchX : 0));
      setAttribute(fullRows, 'height', String(full * pitchY));
      setAttribute(lastRow, 'y', String(full * pitchY));
      setAttribute(lastRow, 'width', String(rest * pitchX));
      setAttribute(lastRow, 'height', String(rest > 0 ? pitchY : 0));
      setAttribute(drawing, 'width', String(drawingWidth));
      setAttribute(drawing, 'height', String(drawingHeight));
      setAttribute(drawing, 'viewBox', `0 0 ${drawingWidth} ${drawingHeight}`);
      setHidden(more, !(count > limit));
      // No GPU to draw: the row's words say so, and an empty box would only indent them.
      setHidden(element, drawn === 0);
    },
  };
}
