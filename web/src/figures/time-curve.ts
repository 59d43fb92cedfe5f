// Training time against GPUs on log–log axes (section 5, time).

import { h, setAttribute, setClass, setFigure, setHidden, setStyle, setText, svg } from '../dom/dom';
import type { Units } from '../engine/units';
import type { Translate } from '../i18n/i18n';

export interface CurvePoint {
  gpus: number;
  seconds: number;
}

export interface CurveMark extends CurvePoint {
  /** What the point is, under its time: "your 2,048 GPUs", "one GPU". */
  name: string;
}

export interface TimeCurve {
  element: HTMLElement;
  /**
   * Draws the curve (and a second one beside it, dashed), its reference lines and up to four
   * marked points (the learner's first; the fourth on the second curve);
   * a mark that is absent (null) or sits on an earlier one is hidden. Returns the labels of the
   * reference lines drawn and, per mark, whether it is drawn (a caption names only those).
   */
  update(
    curve: readonly CurvePoint[],
    references: ReadonlyArray<{ seconds: number; label: string }>,
    marks: ReadonlyArray<CurveMark | null>,
    label: string,
    second?: readonly CurvePoint[],
  ): { references: string[]; marks: boolean[] };
}

/** The SVG's own coordinates: it stretches to the plot, and its strokes do not scale (vector-effect). */
const CURVE_VIEW = 1000;
/** The most powers of ten of GPUs the x axis labels: 1 to 10 million, the field's limit. */
const CURVE_X_TICKS = 8;
/** Pixels kept between a label and anything placed before it. */
const CURVE_LABEL_GAP = 4;
/** Half the largest dot, its outline included (styles.css, .ts-curve-dot-you). */
const CURVE_DOT_RADIUS = 11;

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}
/** Whether the segment from (x0, y0) to (x1, y1) passes through the box grown by the label gap (Liang–Barsky clipping). */
function crosses(box: Box, x0: number, y0: number, x1: number, y1: number): boolean {
  const dx = x1 - x0,
    dy = y1 - y0;
  let enter = 0,
    leave = 1;
  const edges: Array<[number, number]> = [
    [-dx, x0 - (box.left - CURVE_LABEL_GAP)],
    [dx, box.right + CURVE_LABEL_GAP - x0],
    [-dy, y0 - (box.top - CURVE_LABEL_GAP)],
    [dy, box.bottom + CURVE_LABEL_GAP - y0],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) enter = Math.max(enter, t);
    else leave = Math.min(leave, t);
    if (enter > leave) return false;
  }
  return true;
}
const meets = (a: Box, b: Box) =>
  a.left < b.right + CURVE_LABEL_GAP &&
  b.left < a.right + CURVE_LABEL_GAP &&
  a.top < b.bottom + CURVE_LABEL_GAP &&
  b.top < a.bottom + CURVE_LABEL_GAP;

/** What a label search needs to know about the plot as drawn: its size, its scales and the curve in pixels. */
interface PlotGeometry {
  width: number;
  height: number;
  lineHeight: number;
  xShare(gpus: number): number;
  yShare(seconds: number): number;
  /** Each curve's points in pixels, left to right. */
  paths: ReadonlyArray<ReadonlyArray<readonly [number, number]>>;
  /** Each reference line's share of the height, or null when it is off the plot. */
  referenceShares: ReadonlyArray<number | null>;
}

type TextWidth = (text: string, bold?: boolean) => number;

/** A box inside the plot that meets no box placed before it and does not cross the curve. */
function fitsPlot(geometry: PlotGeometry, placed: readonly Box[], box: Box): boolean {
  const { width, height, paths } = geometry;
  return (
    box.left >= 0 &&
    box.right <= width &&
    box.top >= 0 &&
    box.bottom <= height &&
    !placed.some((other) => meets(box, other)) &&
    !paths.some((path) => path.some(([x, y], index) => index > 0 && crosses(box, path[index - 1][0], path[index - 1][1], x, y)))
  );
}

/** The box a dot covers: labels keep clear of every dot. */
function dotBox(geometry: PlotGeometry, mark: CurveMark): Box {
  const x = geometry.xShare(mark.gpus) * geometry.width,
    y = geometry.yShare(mark.seconds) * geometry.height;
  return { left: x - CURVE_DOT_RADIUS, right: x + CURVE_DOT_RADIUS, top: y - CURVE_DOT_RADIUS, bottom: y + CURVE_DOT_RADIUS };
}

/** Where a mark's two-line label may go, nearest first: beside its dot, then further out, then above or below it. */
function labelPlaces(geometry: PlotGeometry, mark: CurveMark, labelWidth: number): Box[] {
  const { width } = geometry;
  const x = geometry.xShare(mark.gpus) * width,
    y = geometry.yShare(mark.seconds) * geometry.height;
  const labelHeight = 2 * geometry.lineHeight;
  const at = (left: number, top: number): Box => ({ left, top, right: left + labelWidth, bottom: top + labelHeight });
  // Above or below the dot, kept inside the plot at its ends.
  const centred = Math.max(0, Math.min(width - labelWidth, x - labelWidth / 2));
  const places: Box[] = [];
  // The curve falls from top left to bottom right: above-right and below-left of a point are clear of it.
  for (const near of [CURVE_DOT_RADIUS + CURVE_LABEL_GAP + 1, 3 * CURVE_DOT_RADIUS, 5 * CURVE_DOT_RADIUS]) {
    const above = y - labelHeight - CURVE_LABEL_GAP - 2,
      below = y + CURVE_LABEL_GAP + 2;
    places.push(
      at(x + near, above),
      at(x - labelWidth - near, below),
      at(x + near, below),
      at(x - labelWidth - near, above),
      at(x + near, y - labelHeight / 2),
      at(x - labelWidth - near, y - labelHeight / 2),
      at(centred, y + near),
      at(centred, y - labelHeight - near),
    );
  }
  return places;
}

interface MarkPlaces {
  /** Places clear of the dashed reference lines (text across a dashed line is hard to read). */
  clear: Box[];
  /** Every usable place, the clear ones first. */
  all: Box[];
}

/** A mark's usable label places, given what is already placed (the dots). */
function markPlaces(
  geometry: PlotGeometry,
  placed: readonly Box[],
  mark: CurveMark | null,
  textWidth: TextWidth,
  formatDuration: (seconds: number) => string,
): MarkPlaces {
  if (!mark) return { clear: [], all: [] };
  const labelWidth = Math.max(textWidth(formatDuration(mark.seconds), true), textWidth(mark.name));
  const usable = labelPlaces(geometry, mark, labelWidth).filter((box) => fitsPlot(geometry, placed, box));
  const onLine = (box: Box) =>
    geometry.referenceShares.some(
      (share) => share !== null && crosses(box, 0, share * geometry.height, geometry.width, share * geometry.height),
    );
  const clear = usable.filter((box) => !onLine(box));
  return { clear, all: [...clear, ...usable.filter(onLine)] };
}

/**
 * One place per mark where no two labels meet, searched in order (the learner's label keeps its
 * best place when it can): a small search, as each mark has a few dozen places at most.
 */
function arrangeLabels(places: readonly MarkPlaces[], choice: keyof MarkPlaces): Array<Box | null> | null {
  const chosen: Array<Box | null> = places.map(() => null);
  const arrange = (index: number): boolean => {
    if (index === places.length) return true;
    if (places[index].all.length === 0) return arrange(index + 1);
    for (const box of places[index][choice]) {
      if (chosen.slice(0, index).some((other) => other !== null && meets(box, other))) continue;
      chosen[index] = box;
      if (arrange(index + 1)) return true;
    }
    chosen[index] = null;
    return false;
  };
  return arrange(0) ? chosen : null;
}

/** Clear of the dashed lines if possible, across them if need be, and failing both each mark takes the first place left, in order. */
function chooseMarkLabels(places: readonly MarkPlaces[]): Array<Box | null> {
  const arranged = arrangeLabels(places, 'clear') ?? arrangeLabels(places, 'all');
  if (arranged) return arranged;
  const chosen: Array<Box | null> = places.map(() => null);
  places.forEach((candidates, index) => {
    chosen[index] = candidates.all.find((box) => !chosen.some((other) => other !== null && meets(box, other))) ?? null;
  });
  return chosen;
}

/** A reference line's label: at either end of its line first, then anywhere along it, above or below; null when none fits. */
function referenceLabelBox(geometry: PlotGeometry, placed: Box[], share: number, labelWidth: number): Box | null {
  const { width, lineHeight } = geometry;
  const y = share * geometry.height;
  const at = (left: number, top: number): Box => ({ left, top, right: left + labelWidth, bottom: top + lineHeight });
  const lefts = [width - labelWidth - 2, 2, ...[0.25, 0.5, 0.75].map((along) => along * (width - labelWidth))];
  const box =
    [...lefts.map((left) => at(left, y - lineHeight - 1)), ...lefts.map((left) => at(left, y + 1))].find((candidate) =>
      fitsPlot(geometry, placed, candidate),
    ) ?? null;
  if (box) placed.push(box);
  return box;
}

/** GPU counts under the plot: centred on their line, or kept inside at the ends; one that would crowd the one before waits. */
function placeTicks(geometry: PlotGeometry, ticks: readonly HTMLElement[], tickValues: readonly number[], textWidth: TextWidth): void {
  const { width } = geometry;
  let lastRight = -Infinity;
  ticks.forEach((tick, index) => {
    const value = tickValues[index];
    if (value === undefined) {
      setHidden(tick, true);
      return;
    }
    const x = geometry.xShare(value) * width,
      labelWidth = textWidth(tick.textContent ?? '');
    const align = x - labelWidth / 2 < 0 ? 'start' : x + labelWidth / 2 > width ? 'end' : 'middle';
    const left = align === 'start' ? x : align === 'end' ? x - labelWidth : x - labelWidth / 2;
    const shown = left >= 0 && left >= lastRight + 8;
    setHidden(tick, !shown);
    if (!shown) return;
    lastRight = left + labelWidth;
    setStyle(tick, 'left', `${x.toFixed(1)}px`);
    setClass(tick, 'ts-tick-start', align === 'start');
    setClass(tick, 'ts-tick-end', align === 'end');
  });
}

/** Shows a label at its box (pixels from the plot's top left), or hides it. */
function placeLabel(view: HTMLElement, box: Box | null): void {
  setHidden(view, box === null);
  if (!box) return;
  setStyle(view, 'left', `${box.left.toFixed(1)}px`);
  setStyle(view, 'top', `${box.top.toFixed(1)}px`);
}

/** The curve's elements, built once. */
function curveElements(t: Translate) {
  const line = svg('polyline', { class: 'ts-curve-line', fill: 'none', 'vector-effect': 'non-scaling-stroke' });
  const secondLine = svg('polyline', { class: 'ts-curve-line ts-curve-line-second', fill: 'none', 'vector-effect': 'non-scaling-stroke' });
  const referenceLines = Array.from({ length: 4 }, () =>
    svg('line', { class: 'ts-curve-reference', x1: '0', x2: String(CURVE_VIEW), 'vector-effect': 'non-scaling-stroke' }),
  );
  const gridLines = Array.from({ length: CURVE_X_TICKS }, () =>
    svg('line', { class: 'ts-curve-grid', y1: '0', y2: String(CURVE_VIEW), 'vector-effect': 'non-scaling-stroke' }),
  );
  const drawing = svg(
    'svg',
    {
      class: 'ts-curve-svg',
      viewBox: `0 0 ${CURVE_VIEW} ${CURVE_VIEW}`,
      preserveAspectRatio: 'none',
      'aria-hidden': 'true',
      focusable: 'false',
    },
    ...gridLines,
    ...referenceLines,
    line,
    secondLine,
  );
  const referenceLabels = referenceLines.map((_, index) =>
    h('span', { className: 'ts-curve-label ts-curve-ref-label', 'data-figure': `time-reference-${index}` }, ''),
  );
  const markViews = (['you', 'one', 'cluster', 'stop'] as const).map((kind) => {
    const dot = h('span', { className: `ts-curve-dot ts-curve-dot-${kind}` });
    const value = h('strong', { 'data-figure': `curve-seconds-${kind}` }, '');
    const name = h('span', null, '');
    const label = h('span', { className: `ts-curve-label ts-curve-mark-label ts-curve-mark-${kind}` }, value, name);
    return { dot, value, name, label };
  });
  const plot = h(
    'div',
    { className: 'ts-curve-plot' },
    drawing,
    markViews.map((m) => m.dot),
    referenceLabels,
    markViews.map((m) => m.label),
  );
  const ticks = Array.from({ length: CURVE_X_TICKS }, () => h('span', { className: 'ts-tick' }, ''));
  const axis = h('div', { className: 'ts-axis ts-axis-log ts-curve-axis', 'aria-hidden': 'true' }, ticks);
  const element = h(
    'div',
    // Named for "show me" (src/engine/quiz/figures.cpp): the curve of time over GPUs, no single figure.
    { className: 'ts-curve', role: 'img', 'data-figure': 'time-curve' },
    h('p', { className: 'ts-curve-axis-title', 'aria-hidden': 'true' }, t('figures.curve.y_title', 'Training time (log scale)')),
    plot,
    axis,
    h(
      'p',
      { className: 'ts-curve-axis-title ts-curve-axis-title-x', 'aria-hidden': 'true' },
      t('figures.curve.x_title', 'GPUs (log scale)'),
    ),
  );
  return { element, plot, line, secondLine, referenceLines, gridLines, referenceLabels, markViews, ticks };
}

type CurveElements = ReturnType<typeof curveElements>;

/** The plot's scales for a curve: log GPUs across, log time down, with room for labels at the ends. */
function curveScales(drawn: readonly CurvePoint[], second: readonly CurvePoint[]) {
  const xLow = Math.log10(drawn[0].gpus);
  const xHigh = Math.max(xLow + 1, Math.log10(drawn[drawn.length - 1].gpus));
  const both = [...drawn, ...second];
  const yLow = Math.log10(Math.min(...both.map((p) => p.seconds)));
  const yHigh = Math.log10(Math.max(...both.map((p) => p.seconds)));
  return {
    xLow,
    xHigh,
    // A margin inside the plot so the end points' dots are whole.
    xShare: (gpus: number) => 0.03 + (0.94 * (Math.log10(gpus) - xLow)) / (xHigh - xLow),
    // Room above the longest time and below the shortest for a two-line label beside their points.
    yShare: (seconds: number) => 0.83 - (0.66 * (Math.log10(seconds) - yLow)) / Math.max(1e-9, yHigh - yLow),
  };
}

type CurveScales = ReturnType<typeof curveScales>;

const inView = (share: number) => (share * CURVE_VIEW).toFixed(1);

/** The dashed lines at familiar durations; returns each one's share of the height, or null off the plot. */
function drawReferences(
  parts: CurveElements,
  scales: CurveScales,
  references: ReadonlyArray<{ seconds: number; label: string }>,
): Array<number | null> {
  return parts.referenceLines.map((referenceLine, index) => {
    const reference = references[index];
    const share = reference ? scales.yShare(reference.seconds) : -1;
    const inside = share >= 0 && share <= 1;
    setAttribute(referenceLine, 'visibility', inside ? 'visible' : 'hidden');
    if (inside) {
      setAttribute(referenceLine, 'y1', inView(share));
      setAttribute(referenceLine, 'y2', inView(share));
    }
    setText(parts.referenceLabels[index], reference?.label ?? '');
    return inside ? share : null;
  });
}

/** A grid line and a tick text at each power of ten of GPUs; returns the powers drawn. */
function drawGrid(parts: CurveElements, scales: CurveScales, formatCount: Units['formatCount']): number[] {
  const tickValues: number[] = [];
  for (let power = Math.ceil(scales.xLow); power <= Math.floor(scales.xHigh) && tickValues.length < CURVE_X_TICKS; power += 1)
    tickValues.push(10 ** power);
  parts.gridLines.forEach((grid, index) => {
    const value = tickValues[index];
    setAttribute(grid, 'visibility', value === undefined ? 'hidden' : 'visible');
    if (value !== undefined) {
      setAttribute(grid, 'x1', inView(scales.xShare(value)));
      setAttribute(grid, 'x2', inView(scales.xShare(value)));
    }
    setText(parts.ticks[index], value === undefined ? '' : formatCount(value, { short: true }));
  });
  return tickValues;
}

/** The marked points' dots and texts; a mark on an earlier mark's point is that point, drawn once. Returns the marks shown. */
function drawMarks(
  parts: CurveElements,
  scales: CurveScales,
  marks: ReadonlyArray<CurveMark | null>,
  formatDuration: Units['formatDuration'],
): Array<CurveMark | null> {
  const shownMarks = marks.map((mark, index) =>
    mark &&
    mark.gpus > 0 &&
    mark.seconds > 0 &&
    !marks.slice(0, index).some((earlier) => earlier && earlier.gpus === mark.gpus && earlier.seconds === mark.seconds)
      ? mark
      : null,
  );
  parts.markViews.forEach((markView, index) => {
    const mark = shownMarks[index];
    setHidden(markView.dot, mark === null);
    if (!mark) return;
    setStyle(markView.dot, 'left', `${(scales.xShare(mark.gpus) * 100).toFixed(3)}%`);
    setStyle(markView.dot, 'top', `${(scales.yShare(mark.seconds) * 100).toFixed(3)}%`);
    setFigure(markView.value, formatDuration(mark.seconds), mark.seconds);
    setText(markView.name, mark.name);
  });
  return shownMarks;
}

/** Label widths from a canvas (no layout), in the labels' computed font, read once; a rough width per character without a canvas. */
/** The label widths kept: the labels of a few hundred scenarios. */
const MEASURED_TEXTS = 500;

function labelMeasure() {
  let font = '';
  let fontSize = 12;
  const canvas = document.createElement('canvas').getContext?.('2d') ?? null;
  // Every input places the labels again and measures the same few texts: setting a canvas's font
  // parses it each time, so each width is measured once (the font is read once, below).
  const widths = new Map<string, number>();
  const textWidth: TextWidth = (text, bold = false) => {
    if (!canvas) return text.length * fontSize * 0.62;
    const key = `${bold ? 'b' : 'r'}${text}`;
    let width = widths.get(key);
    if (width === undefined) {
      if (widths.size >= MEASURED_TEXTS) widths.clear();
      canvas.font = bold ? `700 ${font}` : font;
      width = canvas.measureText(text).width + 2;
      widths.set(key, width);
    }
    return width;
  };
  return {
    textWidth,
    lineHeight: () => fontSize * 1.3,
    readFont(label: HTMLElement) {
      if (font) return;
      const style = getComputedStyle(label);
      fontSize = parseFloat(style.fontSize) || 12;
      font = `${style.fontSize} ${style.fontFamily}`;
      widths.clear();
    },
  };
}

/** What one update drew, kept so that a resize can place the labels again. */
interface CurveDrawing {
  drawn: readonly CurvePoint[];
  second: readonly CurvePoint[];
  scales: CurveScales;
  referenceShares: Array<number | null>;
  shownMarks: Array<CurveMark | null>;
  tickValues: number[];
}

/** Every label at its place for a plot of `width` × `height`: marks first, then reference lines, then the GPU axis. */
function placeLabels(
  parts: CurveElements,
  drawing: CurveDrawing,
  size: { width: number; height: number },
  measure: ReturnType<typeof labelMeasure>,
  formatDuration: Units['formatDuration'],
): void {
  const { referenceLabels, markViews, ticks } = parts;
  const { width, height } = size;
  if (!(width > 0)) {
    // Before the first measurement: labels wait, hidden, for the ResizeObserver.
    [...referenceLabels, ...markViews.map((m) => m.label), ...ticks].forEach((v) => setHidden(v, true));
    return;
  }
  measure.readFont(referenceLabels[0]);
  const { scales, referenceShares, shownMarks } = drawing;
  const geometry: PlotGeometry = {
    width,
    height,
    lineHeight: measure.lineHeight(),
    xShare: scales.xShare,
    yShare: scales.yShare,
    referenceShares,
    paths: [drawing.drawn, drawing.second].map((curve) =>
      curve.map((p) => [scales.xShare(p.gpus) * width, scales.yShare(p.seconds) * height] as const),
    ),
  };
  const placed: Box[] = shownMarks.flatMap((mark) => (mark ? [dotBox(geometry, mark)] : []));
  const places = shownMarks.map((mark) => markPlaces(geometry, placed, mark, measure.textWidth, formatDuration));
  chooseMarkLabels(places).forEach((box, index) => {
    placeLabel(markViews[index].label, box);
    if (box) placed.push(box);
  });
  referenceLabels.forEach((labelView, index) => {
    const share = referenceShares[index];
    const box = share === null ? null : referenceLabelBox(geometry, placed, share, measure.textWidth(labelView.textContent ?? ''));
    placeLabel(labelView, box);
  });
  placeTicks(geometry, ticks, drawing.tickValues, measure.textWidth);
}

/**
 * Training time against GPUs on log–log axes: one line, since time halves when GPUs double, with
 * familiar durations as dashed lines and the learner's and the lesson's points marked. Lines are
 * SVG stretched over the plot; labels are HTML over it, each placed where it meets nothing placed
 * before it (marks first, then reference lines, then the GPU axis), or hidden. Widths come from a
 * canvas (no layout) and the plot's size from a ResizeObserver, so a slider step changes text,
 * attributes and positions only.
 */
export function timeCurve(t: Translate, units: Pick<Units, 'formatCount' | 'formatDuration'>): TimeCurve {
  const { formatCount, formatDuration } = units;
  const parts = curveElements(t);
  const { plot } = parts;
  const size = { width: 0, height: 0 };
  const measure = labelMeasure();
  /** The last update's drawing, placed again on a resize. */
  let drawing: CurveDrawing | null = null;
  const layout = () => {
    if (drawing) placeLabels(parts, drawing, size, measure, formatDuration);
  };

  if (typeof ResizeObserver === 'function') {
    new ResizeObserver(() => {
      if (plot.clientWidth === size.width && plot.clientHeight === size.height) return;
      size.width = plot.clientWidth;
      size.height = plot.clientHeight;
      layout();
    }).observe(plot);
  }

  return {
    element: parts.element,
    update(curve, references, marks, label, secondCurve = []) {
      setAttribute(parts.element, 'aria-label', label);
      const drawn = curve.filter((p) => p.gpus > 0 && p.seconds > 0);
      if (drawn.length === 0) return { references: [], marks: marks.map(() => false) };
      const second = secondCurve.filter((p) => p.gpus > 0 && p.seconds > 0);
      const scales = curveScales(drawn, second);
      const points = (points: readonly CurvePoint[]) =>
        points.map((p) => `${inView(scales.xShare(p.gpus))},${inView(scales.yShare(p.seconds))}`).join(' ');
      setAttribute(parts.line, 'points', points(drawn));
      setAttribute(parts.secondLine, 'points', points(second));
      setAttribute(parts.secondLine, 'data-value', String(second.length));
      const referenceShares = drawReferences(parts, scales, references);
      const tickValues = drawGrid(parts, scales, formatCount);
      const shownMarks = drawMarks(parts, scales, marks, formatDuration);
      drawing = { drawn, second, scales, referenceShares, shownMarks, tickValues };
      if (typeof ResizeObserver !== 'function') {
        size.width = plot.clientWidth;
        size.height = plot.clientHeight;
      }
      layout();
      return {
        references: references.filter((_, index) => referenceShares[index] !== null).map((reference) => reference.label),
        marks: shownMarks.map((mark) => mark !== null),
      };
    },
  };
}
