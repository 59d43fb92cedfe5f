// The layout a scenario describes: its GPUs grouped into data × tensor × pipeline × context
// (× expert) and the slice of the model each group holds. One row per degree in use, each with a
// few GPU squares and its count, so 8 GPUs and 16,384 read the same at 320 px and at 1280 px.

import { h, replace, setAttribute, setFigure, setHidden, setText } from '../dom/dom';
import type { Translate } from '../i18n/i18n';
import type { Estimate, Scenario } from '../engine/types';
import type { Terms } from './term';

export type LayoutDimension = 'tensor' | 'context' | 'pipeline' | 'expert' | 'data';
const DIMENSIONS: readonly LayoutDimension[] = ['tensor', 'context', 'pipeline', 'expert', 'data'];
/** The glossary's term for each row's kind of parallelism (engine/glossary.ts). */
const TERM: Readonly<Record<LayoutDimension, string>> = {
  tensor: 'tensor_parallel',
  context: 'context_parallel',
  pipeline: 'pipeline_parallel',
  expert: 'expert_parallel',
  data: 'data_parallel',
};
/** GPU squares drawn per row (fewer on a phone); the count says how many there are. */
const SQUARES = 8;
const NARROW_SQUARES = 4;

interface Row {
  dimension: LayoutDimension;
  item: HTMLElement;
  name: HTMLElement;
  count: HTMLElement;
  squares: HTMLElement[];
  more: HTMLElement;
  slice: HTMLElement;
}

function buildRow(dimension: LayoutDimension): Row {
  const squares = Array.from({ length: SQUARES }, () => h('span', { className: `ts-layout-gpu ts-layout-${dimension}` }));
  const more = h('span', { className: 'ts-layout-more', 'aria-hidden': 'true' }, '…');
  const name = h('span', { className: 'ts-layout-name' });
  const count = h('strong', { className: 'ts-layout-count', 'data-figure': `layout-${dimension}` });
  // Named for "show me" (src/engine/quiz/figures.cpp): what each group of this kind holds, no single
  // number. A block, not a span: a marked span stays on one line, and this is a sentence.
  const slice = h('div', { className: 'ts-layout-slice', 'data-figure': `layout-${dimension}-slice` });
  const item = h(
    'li',
    { className: 'ts-layout-row' },
    h('span', { className: 'ts-layout-head' }, name, ' ', count),
    h('span', { className: 'ts-layout-squares', 'aria-hidden': 'true' }, squares, more),
    slice,
  );
  return { dimension, item, name, count, squares, more, slice };
}

interface Degrees {
  gpus: number;
  data: number;
  tensor: number;
  pipeline: number;
  context: number;
  expert: number;
}

/** The row's name: the same whatever the layout, so it is written once, its term marked. */
function rowName(t: Translate, dimension: LayoutDimension): string {
  switch (dimension) {
    case 'tensor':
      return t('layout.tensor', 'Tensor parallel');
    case 'context':
      return t('layout.context', 'Context parallel');
    case 'pipeline':
      return t('layout.pipeline', 'Pipeline stages');
    case 'expert':
      return t('layout.expert', 'Expert parallel');
    case 'data':
      return t('layout.data', 'Data parallel copies');
  }
}

/** The slice of the model each of the row's groups holds, in the widget's language. */
function rowSlice(
  t: Translate,
  dimension: LayoutDimension,
  count: number,
  estimate: Estimate,
  zeroStage: number,
  n: (v: number) => string,
) {
  switch (dimension) {
    case 'tensor':
      return {
        slice: t('layout.tensor_slice', 'Each GPU of a group holds 1/{count} of every layer’s matrices.', { count: n(count) }),
      };
    case 'context':
      return {
        slice: t(
          'layout.context_slice',
          'Each GPU takes 1/{count} of every sequence’s tokens and trades keys and values with the others.',
          { count: n(count) },
        ),
      };
    case 'pipeline':
      return {
        slice: t('layout.pipeline_slice', 'Each stage runs its own run of layers: GPU 1’s stage runs {layers} of the {total}.', {
          layers: n(estimate.step.layers),
          total: n(estimate.architecture.layers),
        }),
      };
    case 'expert':
      return {
        slice: t(
          'layout.expert_slice',
          'Carved out of the data- and context-parallel GPUs: each keeps 1/{count} of the {experts} routed experts.',
          {
            count: n(count),
            experts: n(estimate.architecture.experts),
          },
        ),
      };
    case 'data':
      return {
        slice:
          zeroStage === 0
            ? t('layout.data_slice_full', 'Copies of all the above, each on its own micro-batches, each keeping all its model states.')
            : t(
                'layout.data_slice_zero',
                'Copies of all the above, each on its own micro-batches; ZeRO stage {stage} shares their model states out among them.',
                { stage: n(zeroStage) },
              ),
      };
  }
}

/**
 * The layout figure; with `terms`, each row's name explains its kind of parallelism at a tap.
 * `formatGpus` is the engine's count with its noun in the singular or plural ("1 GPU", "64 GPUs").
 */
export function layoutFigure(t: Translate, formatInteger: (value: number) => string, formatGpus: (count: number) => string, terms?: Terms) {
  const rows = DIMENSIONS.map(buildRow);
  for (const row of rows) {
    const name = rowName(t, row.dimension);
    replace(row.name, terms ? terms.mark(name, [TERM[row.dimension]]) : name);
  }
  const total = h('strong', { 'data-figure': 'layout-gpus' });
  const product = h('span', { className: 'ts-layout-product' });
  const element = h(
    'div',
    { className: 'ts-layout', 'data-figure': 'layout' },
    h('p', { className: 'ts-layout-total' }, total, ' ', product),
    h(
      'ol',
      { className: 'ts-layout-rows' },
      rows.map((row) => row.item),
    ),
  );

  function update(estimate: Estimate, scenario: Scenario, narrow: boolean): void {
    const { parallel } = scenario;
    const degrees: Degrees = {
      gpus: parallel.gpus,
      data: estimate.training.data_parallel,
      tensor: parallel.tensor,
      pipeline: parallel.pipeline,
      context: parallel.context,
      expert: parallel.expert,
    };
    const drawn = narrow ? NARROW_SQUARES : SQUARES;
    setFigure(total, formatGpus(degrees.gpus), degrees.gpus);
    setText(
      product,
      t('layout.product', '= {data} data × {tensor} tensor × {pipeline} pipeline × {context} context', {
        data: formatInteger(degrees.data),
        tensor: formatInteger(degrees.tensor),
        pipeline: formatInteger(degrees.pipeline),
        context: formatInteger(degrees.context),
      }),
    );
    for (const row of rows) {
      const count = degrees[row.dimension];
      // Data parallelism is always a row (one copy is still a copy); the others only when they split something.
      const shown = row.dimension === 'data' || count > 1;
      setHidden(row.item, !shown);
      if (!shown) continue;
      const { slice } = rowSlice(t, row.dimension, count, estimate, parallel.zero_stage, formatInteger);
      setFigure(row.count, t('layout.count', '× {count}', { count: formatInteger(count) }), count);
      setText(row.slice, slice);
      row.squares.forEach((square, index) => setHidden(square, index >= Math.min(count, drawn)));
      setHidden(row.more, count <= drawn);
      setAttribute(row.item, 'data-dimension', row.dimension);
    }
  }
  return { element, update };
}
