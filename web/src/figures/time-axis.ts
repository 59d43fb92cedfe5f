// Times on one log axis (one GPU against the whole cluster), with the engine's named marks.

import { h, setAttribute, setClass, setFigure, setHidden, setStyle, setText } from '../dom/dom';
import type { Units } from '../engine/units';

export interface TimePoint {
  seconds: number;
  label: string;
  /** data-figure for the printed time, so tests find each figure where it is shown. */
  figure?: string;
}

/** Pixels kept free between two labels of the time axis. */
const TIME_LABEL_GAP = 10;

/**
 * Each label's width in pixels, measured once from its text and the axis's computed font (a
 * canvas measures text without laying out the page); a rough width per character where no
 * canvas is available.
 */
function measureLabelWidths(labels: readonly HTMLElement[]): number[] {
  const style = getComputedStyle(labels[0]);
  const context = document.createElement('canvas').getContext?.('2d') ?? null;
  const fontSize = parseFloat(style.fontSize) || 12;
  if (context) context.font = style.font || `${fontSize}px sans-serif`;
  // Two pixels spare for sub-pixel rounding and the font's side bearings.
  return labels.map(
    (label) => 2 + (context ? context.measureText(label.textContent ?? '').width : (label.textContent ?? '').length * fontSize * 0.62),
  );
}

export interface TimeAxis {
  element: HTMLElement;
  /** Draws one point or two; returns the labels of the marks drawn as grid lines, shortest first. */
  update(points: readonly TimePoint[], caption: string): string[];
}

/** The mark labels that fit, left to right, each centred on its mark unless that would cross an end of the axis. */
function placeTickLabels(
  ticks: readonly HTMLElement[],
  shares: ReadonlyArray<number | null>,
  labelWidths: number[] | null,
  axisWidth: number,
): void {
  let lastRight = -Infinity;
  shares.forEach((share, index) => {
    let shown = false;
    let align: 'start' | 'middle' | 'end' = 'middle';
    if (share !== null && labelWidths !== null) {
      const x = share * axisWidth;
      const width = labelWidths[index];
      let left = x - width / 2;
      if (left < 0) {
        align = 'start';
        left = x;
      } else if (x + width / 2 > axisWidth) {
        align = 'end';
        left = x - width;
      }
      shown = left >= 0 && left + width <= axisWidth && left >= lastRight + TIME_LABEL_GAP;
      if (shown) lastRight = left + width;
    }
    setHidden(ticks[index], !shown);
    if (!shown) return;
    setStyle(ticks[index], 'left', `${((share ?? 0) * 100).toFixed(3)}%`);
    setClass(ticks[index], 'ts-tick-start', align === 'start');
    setClass(ticks[index], 'ts-tick-end', align === 'end');
  });
}

interface PointView {
  element: HTMLElement;
  value: HTMLElement;
  label: HTMLElement;
}

/** One time on the axis: its place, its engine value and what it is. */
function drawPoint(
  view: PointView,
  time: TimePoint | undefined,
  share: (seconds: number) => number,
  formatDuration: Units['formatDuration'],
): void {
  const shown = time !== undefined && time.seconds > 0;
  setHidden(view.element, !shown);
  if (time?.figure) setAttribute(view.value, 'data-figure', time.figure);
  else view.value.removeAttribute('data-figure');
  if (!shown) return;
  setStyle(view.element, 'left', `${(share(time.seconds) * 100).toFixed(3)}%`);
  setClass(view.element, 'ts-time-flip', share(time.seconds) > 0.55);
  setFigure(view.value, formatDuration(time.seconds), time.seconds);
  setText(view.label, time.label);
}

/** The axis's elements: a grid line and a label per mark, the span between the times, and the two times. */
function timeAxisElements(marks: ReadonlyArray<{ seconds: number; label: string }>) {
  const grid = marks.map(() => h('span', { className: 'ts-time-grid' }));
  const ticks = marks.map((mark) => h('span', { className: 'ts-tick' }, mark.label));
  const span = h('span', { className: 'ts-time-span' });
  const point = (kind: 'one' | 'cluster') => {
    // Each holds one text node from the start: a point first shown on a slider step changes text, adds no node.
    const value = h('strong', null, '');
    const label = h('span', null, '');
    const element = h('span', { className: `ts-time-point ts-time-${kind}` }, h('span', { className: 'ts-time-label' }, value, label));
    return { element, value, label };
  };
  const points = [point('one'), point('cluster')];
  const axis = h('div', { className: 'ts-axis ts-axis-log', 'aria-hidden': 'true' }, ticks);
  const element = h(
    'div',
    { className: 'ts-time', role: 'img' },
    h(
      'div',
      { className: 'ts-time-track' },
      grid,
      span,
      points.map((p) => p.element),
    ),
    axis,
  );
  return { grid, ticks, span, points, axis, element };
}

/**
 * Times on one log axis (one GPU against the whole cluster). Every engine mark within the axis
 * gets a grid line; a mark is labelled only where its label fits beside the ones before it,
 * which depends on the axis's width: a ResizeObserver keeps that width, and the labels' widths
 * are measured once, so a slider step lays nothing out to choose them.
 */
export function timeAxis(units: Units): TimeAxis {
  const marks = units.timeAxisMarks();
  const { formatDuration } = units;
  const { grid, ticks, span, points, axis, element } = timeAxisElements(marks);

  /** Each mark's place along the axis (0 to 1), or null when the axis does not reach it. */
  let shares: Array<number | null> = marks.map(() => null);
  let axisWidth = 0;
  let labelWidths: number[] | null = null;

  const placeLabels = () => {
    if (axisWidth > 0 && labelWidths === null) labelWidths = measureLabelWidths(ticks);
    placeTickLabels(ticks, shares, labelWidths, axisWidth);
  };

  if (typeof ResizeObserver === 'function') {
    new ResizeObserver((entries) => {
      const width = entries[entries.length - 1].contentRect.width;
      if (width === axisWidth) return;
      axisWidth = width;
      placeLabels();
    }).observe(axis);
  }

  return {
    element,
    update(given, caption) {
      setAttribute(element, 'aria-label', caption);
      const logs = given.filter((p) => p.seconds > 0).map((p) => Math.log10(p.seconds));
      if (logs.length === 0) logs.push(0);
      const low = Math.floor(Math.min(...logs) - 0.6);
      const high = Math.ceil(Math.max(...logs) + 0.6);
      const share = (seconds: number) => (Math.log10(seconds) - low) / (high - low);
      const position = (seconds: number) => `${(share(seconds) * 100).toFixed(3)}%`;
      shares = marks.map(({ seconds }) => (share(seconds) >= 0 && share(seconds) <= 1 ? share(seconds) : null));
      const gridLabels: string[] = [];
      marks.forEach((mark, index) => {
        const inside = shares[index] !== null;
        setHidden(grid[index], !inside);
        if (!inside) return;
        gridLabels.push(mark.label);
        setStyle(grid[index], 'left', position(mark.seconds));
      });
      // Without a ResizeObserver, read the width here (a layout per update, on old browsers only).
      if (typeof ResizeObserver !== 'function') axisWidth = axis.clientWidth;
      placeLabels();

      const drawn = given.filter((p) => p.seconds > 0).sort((a, b) => a.seconds - b.seconds);
      setHidden(span, drawn.length < 2);
      if (drawn.length >= 2) {
        setStyle(span, 'left', position(drawn[0].seconds));
        setStyle(span, 'width', `calc(${position(drawn[drawn.length - 1].seconds)} - ${position(drawn[0].seconds)})`);
      }
      points.forEach((view, index) => drawPoint(view, given[index], share, formatDuration));
      return gridLabels;
    },
  };
}
