// Figure components: each is built once and then updated in place from engine figures, by
// changing text, attributes and sizes, never by rebuilding nodes. Positions and widths are
// geometry (a value's share of the axis); every number printed is an engine value, formatted
// with the figure's own formatter (bytes for memory, FLOPs for arithmetic, time for time).

import { h, setText, svg, uniqueId } from '../dom/dom';
import type { Translate } from '../i18n/i18n';
import type { Units } from '../engine/units';

export type PartKey = 'weights' | 'kv_cache' | 'gradients' | 'master_weights' | 'optimizer_states' | 'activations' | 'logits'
  | 'gathered_weights' | 'temporary' | 'model_flops' | 'hardware_flops';

export type PartLabels = Readonly<Record<PartKey, string>>;

/** One name and (through the CSS class ts-part-<key>) one colour and pattern per concept, everywhere. */
export function partLabels(t: Translate): PartLabels {
  return {
    weights: t('figures.part.weights', 'Weights'),
    kv_cache: t('figures.part.kv_cache', 'KV cache'),
    gradients: t('figures.part.gradients', 'Gradients'),
    master_weights: t('figures.part.master_weights', 'FP32 master copy'),
    optimizer_states: t('figures.part.optimizer_states', 'Optimizer states'),
    activations: t('figures.part.activations', 'Activations'),
    logits: t('figures.part.logits', 'Logits'),
    gathered_weights: t('figures.part.gathered_weights', 'Gathered weights'),
    temporary: t('figures.part.temporary', 'Temporary buffers'),
    model_flops: t('figures.part.model_flops', 'Model FLOPs'),
    hardware_flops: t('figures.part.hardware_flops', 'Hardware FLOPs'),
  };
}

export interface Part {
  key: PartKey;
  value: number;
  detail?: string;
}

export type Formatter = (value: number) => string;

function percent(value: number, max: number): string {
  if (!(max > 0) || !(value > 0)) return '0%';
  return `${Math.min(100, (value / max) * 100).toFixed(3)}%`;
}

/** Sets an attribute only when it changed. */
export function setAttribute(element: Element, name: string, value: string): void {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}

export function setStyle(element: HTMLElement, property: string, value: string): void {
  if (element.style.getPropertyValue(property) !== value) element.style.setProperty(property, value);
}

export function setHidden(element: HTMLElement, hidden: boolean): void {
  if (element.hidden !== hidden) element.hidden = hidden;
}

export function setClass(element: Element, name: string, on: boolean): void {
  if (element.classList.contains(name) !== on) element.classList.toggle(name, on);
}

/** Text plus the raw engine value in data-value (browser tests compare it with the engine). */
export function setFigure(element: Element, text: string, value: number | boolean): void {
  setText(element, text);
  setAttribute(element, 'data-value', String(value));
}

export interface Marker {
  value: number;
  label: string;
}

export interface StackedBar {
  element: HTMLElement;
  update(values: Part[], max: number, label: string, marker?: Marker): void;
}

/** A horizontal stacked bar on a linear axis from 0 to `max`, with one segment per key and an optional marker. */
export function stackedBar(keys: readonly PartKey[], format: Formatter, labels: PartLabels, options: { marker?: boolean; markerLabel?: boolean } = {}): StackedBar {
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
        setClass(marker, 'ts-marker-flip', max > 0 && markerValue.value / max > 0.6);
        if (markerLabel) setText(markerLabel, markerValue.label);
      }
    },
  };
}

export interface ShardPart {
  key: PartKey;
  /** The whole model's bytes of this component (all GPUs together). */
  whole: number;
  /** What one GPU keeps of it. */
  mine: number;
}

/** Narrowest slice, in pixels, still drawn with its own divider line. */
const MIN_SLICE_PIXELS = 6;

/**
 * The whole model's states as one bar, each component showing the share one GPU keeps: a full
 * copy stays bright; a sharded component fades except for GPU 1's own slice (bright, outlined,
 * never narrower than a few pixels), with faint lines where the other GPUs' slices begin while
 * they are far enough apart to read (the track's width comes from a ResizeObserver).
 */
export function shardBar(keys: readonly PartKey[], format: Formatter, labels: PartLabels, t: Translate): { element: HTMLElement; update(parts: ShardPart[], max: number, label: string): void } {
  const rows = keys.map((key) => {
    const veil = h('span', { className: 'ts-shard-veil' });
    const mine = h('span', { className: 'ts-shard-mine' });
    const segment = h('span', { className: `ts-seg ts-part-${key}` }, veil, mine);
    /** The segment's share of the track, and the share of the segment one GPU keeps. */
    return { key, segment, veil, mine, ofTrack: 0, share: 1 };
  });
  const track = h('div', { className: 'ts-bar-track ts-shard-track' }, rows.map((row) => row.segment));
  const element = h('div', { className: 'ts-bar', role: 'img' }, track);
  let trackWidth = 0;

  const drawDividers = () => {
    for (const row of rows) {
      const slicePixels = trackWidth * row.ofTrack * row.share;
      const drawn = row.share < 0.999 && slicePixels >= MIN_SLICE_PIXELS;
      setClass(row.veil, 'ts-shard-veil-dense', !drawn);
      setStyle(row.veil, '--ts-slice', drawn ? `${(row.share * 100).toFixed(4)}%` : '');
    }
  };
  if (typeof ResizeObserver === 'function') {
    new ResizeObserver((entries) => {
      const width = entries[entries.length - 1].contentRect.width;
      if (width === trackWidth) return;
      trackWidth = width;
      drawDividers();
    }).observe(track);
  }

  return {
    element,
    update(parts, max, label) {
      setAttribute(element, 'aria-label', label);
      for (const row of rows) {
        const part = parts.find((p) => p.key === row.key) ?? { key: row.key, whole: 0, mine: 0 };
        row.share = part.whole > 0 ? Math.min(1, part.mine / part.whole) : 1;
        row.ofTrack = max > 0 && part.whole > 0 ? Math.min(1, part.whole / max) : 0;
        const sharded = row.share < 0.999;
        setHidden(row.segment, !(part.whole > 0));
        setStyle(row.segment, 'width', percent(part.whole, max));
        setAttribute(row.segment, 'title', t('figures.shard.title', '{part}: {whole} in all, {mine} on each GPU', { part: labels[row.key], whole: format(part.whole), mine: format(part.mine) }));
        setClass(row.segment, 'ts-seg-sharded', sharded);
        setHidden(row.veil, !sharded);
        setHidden(row.mine, !sharded);
        setStyle(row.mine, 'width', `max(8px, ${(row.share * 100).toFixed(4)}%)`);
      }
      // Without a ResizeObserver, read the width here (a layout per update, on old browsers only).
      if (typeof ResizeObserver !== 'function') trackWidth = track.clientWidth;
      drawDividers();
    },
  };
}

/**
 * Legend rows: swatch (colour and pattern), name, value, and a detail such as bytes per parameter.
 * `caption` names the list; with `showCaption` it also heads the list on screen (two legends side
 * by side stack on a phone, and each must still say which bar it explains).
 */
export function legend(keys: readonly PartKey[], format: Formatter, labels: PartLabels, caption: string, options: { showCaption?: boolean } = {}): { element: HTMLElement; update(parts: Part[]): void } {
  const rows = keys.map((key) => {
    const value = h('span', { className: 'ts-legend-value' });
    const detail = h('span', { className: 'ts-legend-detail' });
    const item = h('li', { className: 'ts-legend-item' },
      h('span', { className: `ts-swatch ts-part-${key}`, 'aria-hidden': 'true' }),
      h('span', { className: 'ts-legend-name' }, labels[key]), value, detail);
    return { key, value, detail, item };
  });
  const titleId = options.showCaption ? uniqueId('legend') : null;
  const list = h('ul', titleId ? { className: 'ts-legend', 'aria-labelledby': titleId } : { className: 'ts-legend', 'aria-label': caption },
    rows.map((row) => row.item));
  const element = titleId ? h('div', { className: 'ts-legend-group' }, h('p', { className: 'ts-legend-title', id: titleId }, caption), list) : list;
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

/** The most ticks niceTicks gives for a count of 5 (a step of 1 × 10^k over up to 5 × 10^k, and 0). */
const MAX_TICKS = 11;

/** A linear axis under stacked bars; ticks are a fixed pool, shown or hidden. */
export function linearAxis(format: Formatter): { element: HTMLElement; update(max: number, narrow: boolean): void } {
  const ticks = Array.from({ length: MAX_TICKS }, () => h('span', { className: 'ts-tick' }));
  const element = h('div', { className: 'ts-axis', 'aria-hidden': 'true' }, ticks);
  return {
    element,
    update(max, narrow) {
      const values = niceTicks(max, narrow ? 3 : 5);
      ticks.forEach((tick, index) => {
        const value = values[index];
        setHidden(tick, value === undefined);
        if (value === undefined) return;
        setClass(tick, 'ts-tick-end', value / max > 0.92);
        setStyle(tick, 'left', percent(value, max));
        setText(tick, value === 0 ? '0' : format(value));
      });
    },
  };
}


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
  return labels.map((label) => 2 + (context ? context.measureText(label.textContent ?? '').width : (label.textContent ?? '').length * fontSize * 0.62));
}

export interface TimeAxis {
  element: HTMLElement;
  /** Draws one point or two; returns the labels of the marks drawn as grid lines, shortest first. */
  update(points: readonly TimePoint[], caption: string): string[];
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
  const element = h('div', { className: 'ts-time', role: 'img' },
    h('div', { className: 'ts-time-track' }, grid, span, points.map((p) => p.element)), axis);

  /** Each mark's place along the axis (0 to 1), or null when the axis does not reach it. */
  let shares: Array<number | null> = marks.map(() => null);
  let axisWidth = 0;
  let labelWidths: number[] | null = null;

  const placeLabels = () => {
    if (axisWidth > 0 && labelWidths === null) labelWidths = measureLabelWidths(ticks);
    let lastRight = -Infinity;
    shares.forEach((share, index) => {
      let shown = false;
      let align: 'start' | 'middle' | 'end' = 'middle';
      if (share !== null && labelWidths !== null) {
        const x = share * axisWidth;
        const width = labelWidths[index];
        // Centred on its mark, unless that would cross an end of the axis.
        let left = x - width / 2;
        if (left < 0) { align = 'start'; left = x; } else if (x + width / 2 > axisWidth) { align = 'end'; left = x - width; }
        shown = left >= 0 && left + width <= axisWidth && left >= lastRight + TIME_LABEL_GAP;
        if (shown) lastRight = left + width;
      }
      setHidden(ticks[index], !shown);
      if (!shown) return;
      setStyle(ticks[index], 'left', `${((share ?? 0) * 100).toFixed(3)}%`);
      setClass(ticks[index], 'ts-tick-start', align === 'start');
      setClass(ticks[index], 'ts-tick-end', align === 'end');
    });
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
      points.forEach((view, index) => {
        const time = given[index];
        const shown = time !== undefined && time.seconds > 0;
        setHidden(view.element, !shown);
        if (time?.figure) setAttribute(view.value, 'data-figure', time.figure);
        else view.value.removeAttribute('data-figure');
        if (!shown) return;
        setStyle(view.element, 'left', position(time.seconds));
        setClass(view.element, 'ts-time-flip', share(time.seconds) > 0.55);
        setFigure(view.value, formatDuration(time.seconds), time.seconds);
        setText(view.label, time.label);
      });
      return gridLabels;
    },
  };
}

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
  const tile = svg('pattern', { id: patternId, width: String(pitchX), height: String(pitchY), patternUnits: 'userSpaceOnUse' },
    svg('rect', { class: 'ts-gpu-icon-board', width: String(width), height: String(height), rx: '2' }),
    svg('rect', { class: 'ts-gpu-icon-die', x: '3', y: '4', width: String(width - 6), height: String(height - 8), rx: '1' }));
  const fullRows = svg('rect', { fill: `url(#${patternId})`, x: '0', y: '0', width: '0', height: '0' });
  const lastRow = svg('rect', { fill: `url(#${patternId})`, x: '0', y: '0', width: '0', height: '0' });
  const drawing = svg('svg', { 'aria-hidden': 'true', focusable: 'false', width: '0', height: '0', viewBox: '0 0 0 0' },
    svg('defs', {}, tile), fullRows, lastRow);
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

/** "Why?" on demand: the idea in a sentence or two, the formula, the source. */
export function why(t: Translate, summary: string, paragraphs: Array<string | Node>, formula: string | null, source: string): HTMLElement {
  return h('details', { className: 'ts-why' },
    h('summary', null, summary),
    h('div', { className: 'ts-why-body' },
      paragraphs.map((paragraph) => h('p', null, paragraph)),
      formula ? h('p', { className: 'ts-formula' }, formula) : null,
      h('p', { className: 'ts-source' }, h('span', { className: 'ts-source-label' }, t('figures.why.source', 'Source: ')), source)));
}

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
   * Draws the curve, its reference lines and up to three marked points (the learner's first);
   * a mark that is absent (null) or sits on an earlier one is hidden.
   */
  update(curve: readonly CurvePoint[], references: ReadonlyArray<{ seconds: number; label: string }>,
    marks: ReadonlyArray<CurveMark | null>, label: string): string[];
}

/** The SVG's own coordinates: it stretches to the plot, and its strokes do not scale (vector-effect). */
const CURVE_VIEW = 1000;
/** The most powers of ten of GPUs the x axis labels: 1 to 10 million, the field's limit. */
const CURVE_X_TICKS = 8;
/** Pixels kept between a label and anything placed before it. */
const CURVE_LABEL_GAP = 4;
/** Half the largest dot, its outline included (styles.css, .ts-curve-dot-you). */
const CURVE_DOT_RADIUS = 11;

interface Box { left: number; top: number; right: number; bottom: number }
/** Whether the segment from (x0, y0) to (x1, y1) passes through the box grown by the label gap (Liang–Barsky clipping). */
function crosses(box: Box, x0: number, y0: number, x1: number, y1: number): boolean {
  const dx = x1 - x0, dy = y1 - y0;
  let enter = 0, leave = 1;
  const edges: Array<[number, number]> = [[-dx, x0 - (box.left - CURVE_LABEL_GAP)], [dx, box.right + CURVE_LABEL_GAP - x0],
    [-dy, y0 - (box.top - CURVE_LABEL_GAP)], [dy, box.bottom + CURVE_LABEL_GAP - y0]];
  for (const [p, q] of edges) {
    if (p === 0) { if (q < 0) return false; continue; }
    const t = q / p;
    if (p < 0) enter = Math.max(enter, t); else leave = Math.min(leave, t);
    if (enter > leave) return false;
  }
  return true;
}
const meets = (a: Box, b: Box) => a.left < b.right + CURVE_LABEL_GAP && b.left < a.right + CURVE_LABEL_GAP
  && a.top < b.bottom + CURVE_LABEL_GAP && b.top < a.bottom + CURVE_LABEL_GAP;

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
  const line = svg('polyline', { class: 'ts-curve-line', fill: 'none', 'vector-effect': 'non-scaling-stroke' });
  const referenceLines = Array.from({ length: 4 }, () =>
    svg('line', { class: 'ts-curve-reference', x1: '0', x2: String(CURVE_VIEW), 'vector-effect': 'non-scaling-stroke' }));
  const gridLines = Array.from({ length: CURVE_X_TICKS }, () =>
    svg('line', { class: 'ts-curve-grid', y1: '0', y2: String(CURVE_VIEW), 'vector-effect': 'non-scaling-stroke' }));
  const drawing = svg('svg', { class: 'ts-curve-svg', viewBox: `0 0 ${CURVE_VIEW} ${CURVE_VIEW}`, preserveAspectRatio: 'none', 'aria-hidden': 'true', focusable: 'false' },
    ...gridLines, ...referenceLines, line);
  const referenceLabels = referenceLines.map((_, index) => h('span', { className: 'ts-curve-label ts-curve-ref-label', 'data-figure': `time-reference-${index}` }, ''));
  const markViews = (['you', 'one', 'cluster'] as const).map((kind) => {
    const dot = h('span', { className: `ts-curve-dot ts-curve-dot-${kind}` });
    const value = h('strong', { 'data-figure': `curve-seconds-${kind}` }, '');
    const name = h('span', null, '');
    const label = h('span', { className: `ts-curve-label ts-curve-mark-label ts-curve-mark-${kind}` }, value, name);
    return { dot, value, name, label };
  });
  const plot = h('div', { className: 'ts-curve-plot' }, drawing, markViews.map((m) => m.dot), referenceLabels, markViews.map((m) => m.label));
  const ticks = Array.from({ length: CURVE_X_TICKS }, () => h('span', { className: 'ts-tick' }, ''));
  const axis = h('div', { className: 'ts-axis ts-axis-log ts-curve-axis', 'aria-hidden': 'true' }, ticks);
  const element = h('div', { className: 'ts-curve', role: 'img' },
    h('p', { className: 'ts-curve-axis-title', 'aria-hidden': 'true' }, t('figures.curve.y_title', 'Training time (log scale)')), plot, axis,
    h('p', { className: 'ts-curve-axis-title ts-curve-axis-title-x', 'aria-hidden': 'true' }, t('figures.curve.x_title', 'GPUs (log scale)')));

  let width = 0;
  let height = 0;
  let font = '';
  let fontSize = 12;
  const canvas = document.createElement('canvas').getContext?.('2d') ?? null;
  const textWidth = (text: string, bold = false) => {
    if (!canvas) return text.length * fontSize * 0.62;
    canvas.font = bold ? `700 ${font}` : font;
    return canvas.measureText(text).width + 2;
  };
  /** Shares (0 to 1) of the last update, kept so a resize can place the labels again. */
  let layout: (() => void) | null = null;

  const place = (view: HTMLElement, box: Box | null) => {
    setHidden(view, box === null);
    if (!box) return;
    setStyle(view, 'left', `${box.left.toFixed(1)}px`);
    setStyle(view, 'top', `${box.top.toFixed(1)}px`);
  };

  if (typeof ResizeObserver === 'function') {
    new ResizeObserver(() => {
      if (plot.clientWidth === width && plot.clientHeight === height) return;
      width = plot.clientWidth;
      height = plot.clientHeight;
      layout?.();
    }).observe(plot);
  }

  return {
    element,
    update(curve, references, marks, label) {
      setAttribute(element, 'aria-label', label);
      const drawn = curve.filter((p) => p.gpus > 0 && p.seconds > 0);
      if (drawn.length === 0) return [];
      const xLow = Math.log10(drawn[0].gpus);
      const xHigh = Math.max(xLow + 1, Math.log10(drawn[drawn.length - 1].gpus));
      const yLow = Math.log10(Math.min(...drawn.map((p) => p.seconds)));
      const yHigh = Math.log10(Math.max(...drawn.map((p) => p.seconds)));
      // A margin inside the plot so the end points' dots are whole.
      const xShare = (gpus: number) => 0.03 + 0.94 * (Math.log10(gpus) - xLow) / (xHigh - xLow);
      // Room above the longest time and below the shortest for a two-line label beside their points.
      const yShare = (seconds: number) => 0.83 - 0.66 * (Math.log10(seconds) - yLow) / Math.max(1e-9, yHigh - yLow);
      const view = (share: number) => (share * CURVE_VIEW).toFixed(1);
      setAttribute(line, 'points', drawn.map((p) => `${view(xShare(p.gpus))},${view(yShare(p.seconds))}`).join(' '));

      const referenceShares = referenceLines.map((referenceLine, index) => {
        const reference = references[index];
        const share = reference ? yShare(reference.seconds) : -1;
        const inside = share >= 0 && share <= 1;
        setAttribute(referenceLine, 'visibility', inside ? 'visible' : 'hidden');
        if (inside) { setAttribute(referenceLine, 'y1', view(share)); setAttribute(referenceLine, 'y2', view(share)); }
        setText(referenceLabels[index], reference?.label ?? '');
        return inside ? share : null;
      });

      const tickValues: number[] = [];
      for (let power = Math.ceil(xLow); power <= Math.floor(xHigh) && tickValues.length < CURVE_X_TICKS; power += 1) tickValues.push(10 ** power);
      gridLines.forEach((grid, index) => {
        const value = tickValues[index];
        setAttribute(grid, 'visibility', value === undefined ? 'hidden' : 'visible');
        if (value !== undefined) { setAttribute(grid, 'x1', view(xShare(value))); setAttribute(grid, 'x2', view(xShare(value))); }
        setText(ticks[index], value === undefined ? '' : formatCount(value, { short: true }));
      });

      // A mark on an earlier mark's point is that point: drawn once.
      const shownMarks = marks.map((mark, index) => (mark && mark.gpus > 0 && mark.seconds > 0
        && !marks.slice(0, index).some((earlier) => earlier && earlier.gpus === mark.gpus) ? mark : null));
      markViews.forEach((markView, index) => {
        const mark = shownMarks[index];
        setHidden(markView.dot, mark === null);
        if (!mark) return;
        setStyle(markView.dot, 'left', `${(xShare(mark.gpus) * 100).toFixed(3)}%`);
        setStyle(markView.dot, 'top', `${(yShare(mark.seconds) * 100).toFixed(3)}%`);
        setFigure(markView.value, formatDuration(mark.seconds), mark.seconds);
        setText(markView.name, mark.name);
      });

      layout = () => {
        if (!(width > 0)) {
          // Before the first measurement: labels wait, hidden, for the ResizeObserver.
          [...referenceLabels, ...markViews.map((m) => m.label), ...ticks].forEach((v) => setHidden(v, true));
          return;
        }
        if (!font) {
          const style = getComputedStyle(referenceLabels[0]);
          fontSize = parseFloat(style.fontSize) || 12;
          font = `${style.fontSize} ${style.fontFamily}`;
        }
        const lineHeight = fontSize * 1.3;
        const placed: Box[] = [];
        const path = drawn.map((p) => [xShare(p.gpus) * width, yShare(p.seconds) * height]);
        const fits = (box: Box) => box.left >= 0 && box.right <= width && box.top >= 0 && box.bottom <= height
          && !placed.some((other) => meets(box, other))
          && !path.some(([x, y], index) => index > 0 && crosses(box, path[index - 1][0], path[index - 1][1], x, y));
        const choose = (candidates: Box[]) => {
          const box = candidates.find(fits) ?? null;
          if (box) placed.push(box);
          return box;
        };
        // The dots themselves are kept clear of every label.
        shownMarks.forEach((mark) => {
          if (!mark) return;
          const x = xShare(mark.gpus) * width, y = yShare(mark.seconds) * height;
          placed.push({ left: x - CURVE_DOT_RADIUS, right: x + CURVE_DOT_RADIUS, top: y - CURVE_DOT_RADIUS, bottom: y + CURVE_DOT_RADIUS });
        });
        // The curve falls from top left to bottom right: above-right and below-left of a point are clear of it.
        const markCandidates = shownMarks.map((mark) => {
          if (!mark) return { clear: [] as Box[], all: [] as Box[] };
          const x = xShare(mark.gpus) * width, y = yShare(mark.seconds) * height;
          const w = Math.max(textWidth(formatDuration(mark.seconds), true), textWidth(mark.name)), hgt = 2 * lineHeight;
          const at = (left: number, top: number): Box => ({ left, top, right: left + w, bottom: top + hgt });
          const candidates: Box[] = [];
          // Above or below the dot, kept inside the plot at its ends.
          const centred = Math.max(0, Math.min(width - w, x - w / 2));
          // Beside the dot first, then a little further out, past a neighbouring dot.
          for (const near of [CURVE_DOT_RADIUS + CURVE_LABEL_GAP + 1, 3 * CURVE_DOT_RADIUS, 5 * CURVE_DOT_RADIUS]) {
            const above = y - hgt - CURVE_LABEL_GAP - 2, below = y + CURVE_LABEL_GAP + 2;
            candidates.push(at(x + near, above), at(x - w - near, below), at(x + near, below), at(x - w - near, above),
              at(x + near, y - hgt / 2), at(x - w - near, y - hgt / 2), at(centred, y + near), at(centred, y - hgt - near));
          }
          // Text across a dashed line is hard to read: places clear of the reference lines come first.
          const onLine = (box: Box) => referenceShares.some((share) => share !== null
            && crosses(box, 0, share * height, width, share * height));
          const usable = candidates.filter(fits);
          return { clear: usable.filter((box) => !onLine(box)), all: [...usable.filter((box) => !onLine(box)), ...usable.filter(onLine)] };
        });
        // Every mark named if any arrangement allows it (the learner's label keeps its best place
        // when it can): a small search, as each mark has a few dozen places at most.
        const chosen: Array<Box | null> = shownMarks.map(() => null);
        const arrange = (index: number, choice: 'clear' | 'all'): boolean => {
          if (index === markCandidates.length) return true;
          const candidates = markCandidates[index][choice];
          if (markCandidates[index].all.length === 0) return arrange(index + 1, choice);
          for (const box of candidates) {
            if (chosen.slice(0, index).some((other) => other !== null && meets(box, other))) continue;
            chosen[index] = box;
            if (arrange(index + 1, choice)) return true;
          }
          chosen[index] = null;
          return false;
        };
        // Clear of the dashed lines if possible, across them if need be, and failing both each
        // mark takes the first place left, in order.
        if (!arrange(0, 'clear') && !arrange(0, 'all')) {
          chosen.fill(null);
          markCandidates.forEach((candidates, index) => {
            chosen[index] = candidates.all.find((box) => !chosen.some((other) => other !== null && meets(box, other))) ?? null;
          });
        }
        chosen.forEach((box, index) => { place(markViews[index].label, box); if (box) placed.push(box); });
        referenceLabels.forEach((labelView, index) => {
          const share = referenceShares[index];
          if (share === null) { place(labelView, null); return; }
          const y = share * height, w = textWidth(labelView.textContent ?? '');
          const at = (left: number, top: number): Box => ({ left, top, right: left + w, bottom: top + lineHeight });
          // At either end of its line first, then anywhere along it, above or below.
          const lefts = [width - w - 2, 2, ...[0.25, 0.5, 0.75].map((share) => share * (width - w))];
          place(labelView, choose([...lefts.map((left) => at(left, y - lineHeight - 1)), ...lefts.map((left) => at(left, y + 1))]));
        });
        // GPU counts under the plot: centred on their line, or kept inside at the ends; one that would crowd the one before waits.
        let lastRight = -Infinity;
        ticks.forEach((tick, index) => {
          const value = tickValues[index];
          if (value === undefined) { setHidden(tick, true); return; }
          const x = xShare(value) * width, w = textWidth(tick.textContent ?? '');
          const align = x - w / 2 < 0 ? 'start' : x + w / 2 > width ? 'end' : 'middle';
          const left = align === 'start' ? x : align === 'end' ? x - w : x - w / 2;
          const shown = left >= 0 && left >= lastRight + 8;
          setHidden(tick, !shown);
          if (!shown) return;
          lastRight = left + w;
          setStyle(tick, 'left', `${x.toFixed(1)}px`);
          setClass(tick, 'ts-tick-start', align === 'start');
          setClass(tick, 'ts-tick-end', align === 'end');
        });
      };
      if (typeof ResizeObserver !== 'function') { width = plot.clientWidth; height = plot.clientHeight; }
      layout();
      return references.filter((_, index) => referenceShares[index] !== null).map((reference) => reference.label);
    },
  };
}
