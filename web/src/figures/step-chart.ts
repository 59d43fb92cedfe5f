// The step chart: the memory one GPU holds through one training step, as stacked areas against
// time (one SVG path per component, in the colour and pattern every memory figure uses), with the
// GPU's memory as a line, the peak marked and a playhead. Built once; an update rewrites one `d`
// per path and moves a few labels; the playhead moves one style. Every number printed is an
// engine value formatted by units.ts; positions are geometry (a value's share of the axes).

import { h, setAttribute, setClass, setFigure, setHidden, setStyle, setText, svg, uniqueId } from '../dom/dom';
import { linearAxis, niceTicks } from './linear-axis';
import { type PartKey } from './parts';
import { withElements, type Translate } from '../i18n/i18n';
import type { StepBytes, StepEvent } from '../engine/types';
import type { Units } from '../engine/units';

/** Bottom to top, as the bars elsewhere run left to right: the model states, then what comes and goes. */
export const STEP_KEYS: readonly PartKey[] = [
  'weights',
  'gradients',
  'master_weights',
  'optimizer_states',
  'activations',
  'logits',
  'gathered_weights',
  'temporary',
];
type StepKey = Exclude<keyof StepBytes, 'total'>;

/** The most y ticks niceTicks gives (0 and up to ten steps). */
const Y_TICKS = 11;
/** Headroom above the taller of the peak and the GPU's memory, so their labels have room. */
const HEADROOM = 1.12;
/** Where a label near the right edge turns to the left of its mark. */
const FLIP_AT = 0.6;

/** When what stays put all step outweighs what changes this many times, the chart draws only what changes. */
const FOCUS_RATIO = 3;

/**
 * The parts held the same through the whole step (the model states, mostly), and whether the chart
 * should leave them out: when they dwarf what comes and goes, the activations are a sliver and
 * checkpointing would visibly change only the time axis (issue 24, item 14).
 */
function steadyParts(helds: readonly StepBytes[]): { steady: Set<StepKey>; focus: boolean; varyingTop: number; steadyBytes: number } {
  const steady = new Set<StepKey>();
  for (const key of STEP_KEYS as readonly StepKey[]) {
    const first = helds[0][key] ?? 0;
    if (first > 0 && helds.every((held) => (held[key] ?? 0) === first)) steady.add(key);
  }
  // Redrawn on every input with a thousand events or more: the keys that vary are listed once.
  const varyingKeys = (STEP_KEYS as readonly StepKey[]).filter((key) => !steady.has(key));
  let varyingTop = -Infinity;
  for (const held of helds) {
    let sum = 0;
    for (const key of varyingKeys) sum += held[key] ?? 0;
    if (sum > varyingTop) varyingTop = sum;
  }
  const steadyBytes = held0Steady(helds[0], steady);
  return { steady, focus: varyingTop > 0 && steadyBytes > FOCUS_RATIO * varyingTop, varyingTop, steadyBytes };
}

function held0Steady(held: StepBytes, steady: ReadonlySet<StepKey>): number {
  let bytes = 0;
  for (const key of steady) bytes += held[key] ?? 0;
  return bytes;
}

/**
 * The CSS patterns of .ts-part-* (web/styles.css) drawn as SVG patterns, so an area and its
 * legend swatch share colour and texture. Sizes are pixels: the drawing's viewBox is its own
 * size in pixels (from a ResizeObserver), so a pattern is never stretched.
 */
function partPattern(key: PartKey, id: string): SVGPatternElement {
  const mark = (tone: 'light' | 'dark', attributes: Record<string, string>) =>
    svg('rect', { class: `ts-step-mark-${tone}`, ...attributes });
  const specs: Partial<Record<PartKey, { size: number; rotate?: number; marks: SVGElement[] }>> = {
    weights: { size: 6, marks: [] },
    gradients: { size: 6, rotate: 45, marks: [mark('light', { x: '4', y: '0', width: '2', height: '6' })] },
    master_weights: { size: 7, marks: [mark('dark', { x: '5', y: '0', width: '2', height: '7' })] },
    optimizer_states: {
      size: 6,
      rotate: 45,
      marks: [mark('dark', { x: '5', y: '0', width: '1', height: '6' }), mark('dark', { x: '0', y: '5', width: '6', height: '1' })],
    },
    activations: { size: 6, marks: [mark('light', { x: '0', y: '4', width: '6', height: '2' })] },
    logits: { size: 6, rotate: -45, marks: [mark('dark', { x: '4', y: '0', width: '2', height: '6' })] },
    gathered_weights: {
      size: 5,
      marks: [mark('dark', { x: '0', y: '4', width: '5', height: '1' }), mark('dark', { x: '4', y: '0', width: '1', height: '5' })],
    },
    temporary: { size: 5, marks: [svg('circle', { class: 'ts-step-mark-light', cx: '2.5', cy: '2.5', r: '1.3' })] },
  };
  const spec = specs[key] ?? { size: 6, marks: [] };
  const size = String(spec.size);
  return svg(
    'pattern',
    {
      id,
      patternUnits: 'userSpaceOnUse',
      width: size,
      height: size,
      ...(spec.rotate ? { patternTransform: `rotate(${spec.rotate})` } : {}),
    },
    svg('rect', { class: `ts-step-fill-${key}`, width: size, height: size }),
    ...spec.marks,
  );
}

/** Each height's y as text: a run of equal heights (most of a step, for most layers) is written once. */
function ysOf(heights: readonly number[], y: (bytes: number) => string): string[] {
  const ys = new Array<string>(heights.length);
  let height = NaN;
  let text = '';
  for (let point = 0; point < heights.length; point += 1) {
    if (heights[point] !== height) {
      height = heights[point];
      text = y(height);
    }
    ys[point] = text;
  }
  return ys;
}

export interface StepChartData {
  events: readonly StepEvent[];
  seconds: number;
  peakEvent: number;
  peak: StepBytes;
  /** The GPU's memory, and its line's label ("80 GB: the H100 SXM's memory"). */
  memory: number;
  memoryLabel: string;
  /** The chart in one sentence, for a screen reader. */
  label: string;
  narrow: boolean;
}

export interface StepChart {
  element: HTMLElement;
  update(data: StepChartData): void;
  /** Moves the playhead to a time within the step (seconds). */
  setPlayhead(seconds: number): void;
  /** The time the plot's pixel x stands for (a click or a drag on the plot). */
  timeAt(clientX: number): number | null;
}

/** The GPU's memory as a line across the plot (width null: not drawn) with its label above it, or below it near the top. */
function drawGpuLine(lines: readonly SVGElement[], label: HTMLElement, width: number | null, y: string, share: number, text: string): void {
  for (const line of lines) {
    setAttribute(line, 'x2', width === null ? '0' : String(width));
    setAttribute(line, 'y1', y);
    setAttribute(line, 'y2', y);
  }
  setStyle(label, 'top', `${((1 - share) * 100).toFixed(3)}%`);
  setClass(label, 'ts-step-gpu-label-below', share > 0.85);
  setText(label, text);
  setHidden(label, width === null);
}

/** The note over a zoomed-in chart: what lies under its scale, and that the GPU's memory is off it; hidden otherwise. */
function showFocus(note: HTMLElement, steadyBytes: number | null, memory: number, t: Translate, formatBytes: Units['formatBytes']): void {
  setHidden(note, steadyBytes === null);
  setAttribute(note, 'data-value', String(steadyBytes ?? 0));
  if (steadyBytes === null) return;
  setText(
    note,
    t(
      'figures.step.focus',
      'Zoomed in on what changes: {steady} stay the same all step and lie under this scale, whose marks count from there; the GPU’s {memory} is off it.',
      { steady: formatBytes(steadyBytes), memory: formatBytes(memory) },
    ),
  );
}

/**
 * The stacked areas, bottom to top, each one path between its lower and upper edge; the parts held
 * all step are left out when `steady` is given (the zoomed-in chart). Returns each point's top.
 * Redrawn on every input while on screen, with a thousand events or more: each point's x, and each
 * layer's upper edge (the next layer's lower edge), is written once; a point inside a flat run (the
 * same height before and after it) and a point that repeats the one before it add nothing to the
 * outline and are left out (most layers are flat for most of the step).
 */
function drawAreas(
  areas: readonly SVGElement[],
  helds: readonly StepBytes[],
  xs: readonly string[],
  y: (bytes: number) => string,
  steady: ReadonlySet<StepKey> | null,
): number[] {
  const below = new Array<number>(xs.length).fill(0);
  let belowYs = ysOf(below, y);
  const edge = (ys: readonly string[], from: number, to: number) => {
    const step = from <= to ? 1 : -1;
    let path = '';
    let previous = '';
    for (let point = from; point !== to + step; point += step) {
      const inFlatRun = point !== from && point !== to && ys[point - step] === ys[point] && ys[point + step] === ys[point];
      if (inFlatRun) continue;
      const corner = `${xs[point]},${ys[point]}`;
      if (corner !== previous) path += `L${corner}`;
      previous = corner;
    }
    return path;
  };
  STEP_KEYS.forEach((key, index) => {
    const values = helds.map((held) => (steady?.has(key as StepKey) ? 0 : (held[key as StepKey] ?? 0)));
    if (!values.some((value) => value > 0)) {
      setAttribute(areas[index], 'd', '');
      return;
    }
    for (let point = 0; point < xs.length; point += 1) below[point] += values[point];
    const upperYs = ysOf(below, y);
    setAttribute(areas[index], 'd', `M${edge(upperYs, 0, xs.length - 1).slice(1)}${edge(belowYs, xs.length - 1, 0)}Z`);
    belowYs = upperYs;
  });
  return below;
}

/**
 * How close to the GPU's line (a share of the scale) a mark's label would run into the line's own
 * label on a narrow chart ("H100 SXM memory: 85.5 GB" spans most of a phone's plot): it gives way.
 * The narrow plot is 200 px tall (web/styles.css, .ts-step-plot); the line's label (about 15 px, 2 px
 * off the line) and half a mark's label (about 8 px) need 25 px: 0.14 of it, with a little room.
 */
const GPU_LABEL_BAND = 0.14;

/**
 * The y axis's marks and grid lines, up to just under the top; zoomed in, they count from what lies
 * under the scale. `gpuShare`: where the GPU's labelled line is (null when it is not drawn).
 */
function drawTicks(
  yTicks: readonly HTMLElement[],
  gridLines: readonly SVGElement[],
  ticks: readonly number[],
  scale: { top: number; width: number; y: (bytes: number) => string; focus: boolean; gpuShare: number | null },
  t: Translate,
  formatBytes: Units['formatBytes'],
): void {
  const { top, width, y, focus, gpuShare } = scale;
  yTicks.forEach((tick, index) => {
    const value = ticks[index];
    const clearOfGpuLabel = gpuShare === null || Math.abs(value / top - gpuShare) >= GPU_LABEL_BAND;
    const shown = value !== undefined && value > 0 && value / top < 0.97 && clearOfGpuLabel;
    setHidden(tick, !shown);
    const line = gridLines[index];
    setAttribute(line, 'x2', shown ? String(width) : '0');
    if (!shown) return;
    const share = `${((1 - value / top) * 100).toFixed(3)}%`;
    setStyle(tick, 'top', share);
    setText(tick, focus ? t('figures.step.tick_above', '+{bytes}', { bytes: formatBytes(value, 3) }) : formatBytes(value, 3));
    setAttribute(line, 'y1', y(value));
    setAttribute(line, 'y2', y(value));
  });
}

/** The chart's elements, built once: the SVG areas and grid, the GPU's line, the peak's marks, the playhead and the axes. */
function stepChartElements(t: Translate, formatDuration: Units['formatDuration'], durationTicks: Units['durationTicks']) {
  const patternIds = STEP_KEYS.map((key) => uniqueId(`step-${key}`));
  const areas = STEP_KEYS.map((key, index) =>
    svg('path', { class: `ts-step-area ts-step-area-${key}`, fill: `url(#${patternIds[index]})`, d: '' }),
  );
  const gridLines = Array.from({ length: Y_TICKS }, () => svg('line', { class: 'ts-step-grid', x1: '0', x2: '0', y1: '0', y2: '0' }));
  const gpuLine = svg('line', { class: 'ts-step-gpu', x1: '0', x2: '0', y1: '0', y2: '0' });
  // A halo in the page's colour under the GPU's line keeps it legible across the patterned areas.
  const gpuHalo = svg('line', { class: 'ts-step-gpu-halo', x1: '0', x2: '0', y1: '0', y2: '0' });
  const drawing = svg(
    'svg',
    { class: 'ts-step-svg', viewBox: '0 0 1000 240', preserveAspectRatio: 'none', 'aria-hidden': 'true', focusable: 'false' },
    svg('defs', {}, ...STEP_KEYS.map((key, index) => partPattern(key, patternIds[index]))),
    ...gridLines,
    ...areas,
    gpuHalo,
    gpuLine,
  );
  // Each tick is named: a tick that happens to match a figure in the text is a scale mark, not that figure twice.
  const yTicks = Array.from({ length: Y_TICKS }, (_, index) =>
    h('span', { className: 'ts-step-ytick', 'data-figure': `step-axis-${index}` }, ''),
  );
  const gpuLabel = h('span', { className: 'ts-step-gpu-label', 'data-figure': 'step-gpu-memory' }, '');
  const peakLine = h('span', { className: 'ts-step-peak-line' });
  const peakDot = h('span', { className: 'ts-step-peak-dot' });
  const playhead = h('span', { className: 'ts-step-playhead' });
  // Labels last: the playhead passes under them, never through their text.
  const plot = h('div', { className: 'ts-step-plot' }, drawing, peakLine, peakDot, playhead, yTicks, gpuLabel);
  const peakValue = h('strong', { 'data-figure': 'step-peak' }, '');
  const peakLabel = h(
    'span',
    { className: 'ts-step-peak-label' },
    withElements(t('figures.step.peak', 'Peak {value}'), { value: peakValue }),
  );
  const peakRow = h('div', { className: 'ts-step-peak-row', 'aria-hidden': 'true' }, peakLabel);
  const focusNote = h('p', { className: 'ts-step-focus', 'data-figure': 'step-focus' });
  // A clock's round steps (15 min, 1 h), not 1,000 s read as "16.7 min" (issue 24, item 18).
  const xAxis = linearAxis(formatDuration, durationTicks);
  const element = h(
    'div',
    { className: 'ts-step-chart', role: 'img', 'aria-label': t('figures.step.label', 'Memory held by one GPU through one training step') },
    h('p', { className: 'ts-step-axis-title', 'aria-hidden': 'true' }, t('figures.step.y_title', 'Memory held by one GPU')),
    focusNote,
    peakRow,
    plot,
    xAxis.element,
    h(
      'p',
      { className: 'ts-step-axis-title ts-step-axis-title-x', 'aria-hidden': 'true' },
      t('figures.step.x_title', 'Time within one training step'),
    ),
  );

  return {
    element,
    plot,
    drawing,
    areas,
    gridLines,
    gpuHalo,
    gpuLine,
    yTicks,
    gpuLabel,
    peakLine,
    peakDot,
    playhead,
    peakValue,
    peakLabel,
    focusNote,
    xAxis,
  };
}

export function stepChart(t: Translate, units: Pick<Units, 'formatBytes' | 'formatDuration' | 'durationTicks'>): StepChart {
  const { formatBytes, formatDuration, durationTicks } = units;
  const chart = stepChartElements(t, formatDuration, durationTicks);
  const { element, plot, drawing, areas, gridLines, gpuHalo, gpuLine, yTicks, gpuLabel, peakLine, peakDot, playhead } = chart;
  const { peakValue, peakLabel, focusNote, xAxis } = chart;
  let width = 1000;
  let height = 240;
  let last: StepChartData | null = null;
  let playheadSeconds = 0;

  const draw = () => {
    if (!last) return;
    const { events, seconds, peak, peakEvent, memory } = last;
    const helds = [events[0].held, ...events.map((event) => event.held)];
    // What stays put all step lies under the scale when it dwarfs what changes: the chart starts above it.
    const { steady, focus, varyingTop, steadyBytes } = steadyParts(helds);
    const top = (focus ? varyingTop : Math.max(peak.total, memory)) * HEADROOM;
    showFocus(focusNote, focus ? steadyBytes : null, memory, t, formatBytes);
    const x = (time: number) => (seconds > 0 ? Math.min(1, Math.max(0, time / seconds)) * width : 0).toFixed(1);
    const y = (bytes: number) => (top > 0 ? height - Math.min(1, Math.max(0, bytes / top)) * height : height).toFixed(1);
    // The step as points: its start holds what the first event leaves, then each event's end what it leaves.
    const xs = [x(0), ...events.map((event) => x(event.start + event.seconds))];
    const below = drawAreas(areas, helds, xs, y, focus ? steady : null);
    // Only a narrow chart's GPU label reaches across to the marks on the left.
    const gpuShare = focus || top <= 0 || !last.narrow ? null : memory / top;
    drawTicks(yTicks, gridLines, niceTicks(top, last.narrow ? 3 : 5), { top, width, y, focus, gpuShare }, t, formatBytes);
    // Zoomed in, the GPU's memory is off the scale: its line and label are not drawn.
    drawGpuLine([gpuHalo, gpuLine], gpuLabel, focus ? null : width, y(memory), top > 0 ? memory / top : 0, last.memoryLabel);
    const peakEnd = events[peakEvent] ? events[peakEvent].start + events[peakEvent].seconds : 0;
    const peakShare = seconds > 0 ? Math.min(1, peakEnd / seconds) : 0;
    const peakLeft = `${(peakShare * 100).toFixed(3)}%`;
    setStyle(peakLine, 'left', peakLeft);
    setStyle(peakDot, 'left', peakLeft);
    // Zoomed in, the dot sits on the drawn pile at the peak (what changes), the label still states the whole peak.
    const peakDrawn = focus ? below[Math.min(below.length - 1, peakEvent + 1)] : peak.total;
    setStyle(peakDot, 'top', `${((1 - (top > 0 ? peakDrawn / top : 0)) * 100).toFixed(3)}%`);
    setStyle(peakLabel, 'left', peakLeft);
    setClass(peakLabel, 'ts-step-flip', peakShare > FLIP_AT);
    setFigure(peakValue, formatBytes(peak.total), peak.total);
    xAxis.update(seconds, last.narrow);
    setAttribute(element, 'aria-label', last.label);
    placePlayhead();
  };

  const placePlayhead = () => {
    const seconds = last?.seconds ?? 0;
    setStyle(playhead, 'left', `${(seconds > 0 ? Math.min(1, Math.max(0, playheadSeconds / seconds)) * 100 : 0).toFixed(3)}%`);
  };

  if (typeof ResizeObserver === 'function') {
    new ResizeObserver((entries) => {
      const box = entries[entries.length - 1].contentRect;
      if (box.width <= 0 || box.height <= 0 || (Math.round(box.width) === width && Math.round(box.height) === height)) return;
      width = Math.round(box.width);
      height = Math.round(box.height);
      setAttribute(drawing, 'viewBox', `0 0 ${width} ${height}`);
      draw();
    }).observe(plot);
  }

  return {
    element,
    update(data) {
      last = data;
      draw();
    },
    setPlayhead(seconds) {
      playheadSeconds = seconds;
      placePlayhead();
    },
    timeAt(clientX) {
      if (!last) return null;
      const box = plot.getBoundingClientRect();
      if (box.width <= 0) return null;
      return Math.min(1, Math.max(0, (clientX - box.left) / box.width)) * last.seconds;
    },
  };
}
