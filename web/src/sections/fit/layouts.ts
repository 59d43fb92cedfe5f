// The ranked layouts of the scenario's GPUs that fit (docs/scenario.md, "What fits"), fastest run
// first: a list of cards, readable at 320 px, each with "Load this layout".

import { h, replace, setAttribute, setText, uniqueId } from '../../dom/dom';
import type { FitAnswer, FitCheck, FitLayout } from '../../engine/fit';
import type { Scenario } from '../../engine/types';
import type { SectionContext } from '../context';

/** "TP 2 × PP 4 × CP 1 × EP 1 × DP 8": a layout's degrees. */
export function layoutName(
  context: SectionContext,
  layout: Pick<FitLayout, 'tensor' | 'pipeline' | 'context' | 'expert' | 'data'>,
): string {
  const { formatInteger } = context.units;
  return context.t('fit.layout.name', 'TP {tensor} × PP {pipeline} × CP {context} × EP {expert} × DP {data}', {
    tensor: formatInteger(layout.tensor),
    pipeline: formatInteger(layout.pipeline),
    context: formatInteger(layout.context),
    expert: formatInteger(layout.expert),
    data: formatInteger(layout.data),
  });
}

/** "3 weeks · 12,000 GPU-hours · $24,000": a check's run time, GPU-hours and, with a price, its cost. */
export function runFigures(context: SectionContext, check: FitCheck): string {
  const { t } = context;
  const { formatDuration, formatCount, formatMoney } = context.units;
  const time = t('fit.run_time', '{time} of training', { time: formatDuration(check.run_seconds) });
  const hours = t('fit.gpu_hours', '{hours} GPU-hours', { hours: formatCount(check.gpu_hours, { short: true, significant: 3 }) });
  return check.cost > 0
    ? t('fit.run_figures_cost', '{time} · {hours} · {cost}', { time, hours, cost: formatMoney(check.cost) })
    : t('fit.run_figures', '{time} · {hours}', { time, hours });
}

function layoutSettings(context: SectionContext, layout: FitLayout): string {
  const { formatInteger } = context.units;
  const recompute = context.choices('training.recompute').find((choice) => choice.value === layout.recompute)?.label ?? layout.recompute;
  return context.t('fit.layout.settings', 'ZeRO {zero} · recompute: {recompute} · micro-batch {micro_batch}', {
    zero: formatInteger(layout.zero_stage),
    recompute: recompute.toLocaleLowerCase(context.language),
    micro_batch: formatInteger(layout.micro_batch),
  });
}

function layoutCard(context: SectionContext, layout: FitLayout, rank: number, load: (scenario: Scenario) => void): HTMLElement {
  const { t } = context;
  const titleId = uniqueId('layout');
  const { formatBytes, formatInteger } = context.units;
  return h(
    'li',
    { className: 'ts-fit-card', 'data-peak': String(layout.peak_bytes), 'data-run-seconds': String(layout.run_seconds) },
    h(
      'p',
      { className: 'ts-fit-card-title', id: titleId },
      h('span', { className: 'ts-fit-rank' }, t('fit.layout.rank', '#{rank}', { rank: formatInteger(rank) })),
      ' ',
      layoutName(context, layout),
    ),
    h('p', { className: 'ts-fit-card-detail' }, layoutSettings(context, layout)),
    h(
      'p',
      { className: 'ts-fit-card-detail' },
      t('fit.layout.peak', '{peak} per GPU', { peak: formatBytes(layout.peak_bytes) }),
      ' · ',
      runFigures(context, layout),
    ),
    h(
      'button',
      {
        type: 'button',
        className: 'ts-button ts-button-quiet ts-fit-load',
        onclick: () => load(layout.scenario),
        'aria-describedby': titleId,
      },
      t('fit.layout.load', 'Load this layout'),
    ),
  );
}

export interface LayoutsView {
  readonly element: HTMLElement;
  update(answer: FitAnswer): void;
}

export function layoutsList(context: SectionContext, load: (scenario: Scenario) => void): LayoutsView {
  const { t } = context;
  const { formatInteger } = context.units;
  const heading = h(context.headingTag(2), { className: 'ts-fit-subtitle' }, t('fit.layouts.heading', 'Layouts that fit, fastest first'));
  const summary = h('p', { className: 'ts-hint' });
  const list = h('ol', { className: 'ts-fit-cards' });
  const element = h('div', { className: 'ts-fit-layouts', 'data-figure': 'fit-layouts' }, heading, summary, list);
  return {
    element,
    update(answer) {
      setAttribute(element, 'data-value', String(answer.layouts_total));
      setText(
        summary,
        answer.layouts_total === 0
          ? t('fit.layouts.none', 'No layout of these GPUs fits.')
          : t('fit.layouts.summary', '{shown} of {total} layouts that fit, ranked by run time (communication included).', {
              shown: formatInteger(answer.layouts.length),
              total: formatInteger(answer.layouts_total),
            }),
      );
      replace(
        list,
        answer.layouts.map((layout, index) => layoutCard(context, layout, index + 1, load)),
      );
    },
  };
}
