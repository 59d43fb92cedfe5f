// The ranked layouts of the scenario's GPUs that fit (docs/scenario.md, "What fits"), fastest run
// first: a list of cards, readable at 320 px, each with "Load this layout".

import { h, replace, setAttribute, setText, uniqueId } from '../../dom/dom';
import type { FitAnswer, FitCheck, FitLayout, FitLayoutSettings } from '../../engine/fit';
import type { Scenario } from '../../engine/types';
import type { SectionContext } from '../context';

/** "TP 2 × PP 4 × CP 1 × EP 1 × DP 8": a layout's degrees. */
export function layoutName(
  context: SectionContext,
  layout: Pick<FitLayoutSettings, 'tensor' | 'pipeline' | 'context' | 'expert' | 'data'>,
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
  const { formatDuration, formatCount, formatMoney, formatPercent } = context.units;
  // The utilisation the time is at, named: the engine's prediction for the layout, which the time
  // section shows beside the one its slider sets (issue 33).
  const time = t('fit.run_time_predicted', '{time} of training at the predicted {percent} utilisation', {
    time: formatDuration(check.run_seconds),
    percent: formatPercent(check.predicted_mfu),
  });
  const hours = t('fit.gpu_hours', '{hours} GPU-hours', { hours: formatCount(check.gpu_hours, { short: true, significant: 3 }) });
  return check.cost > 0
    ? t('fit.run_figures_cost', '{time} · {hours} · {cost}', { time, hours, cost: formatMoney(check.cost) })
    : t('fit.run_figures', '{time} · {hours}', { time, hours });
}

export function layoutSettings(context: SectionContext, layout: FitLayoutSettings): string {
  const { formatInteger } = context.units;
  const recompute = context.choices('training.recompute').find((choice) => choice.value === layout.recompute)?.label ?? layout.recompute;
  const values = {
    zero: formatInteger(layout.zero_stage),
    recompute: recompute.toLocaleLowerCase(context.language),
    micro_batch: formatInteger(layout.micro_batch),
    interleave: formatInteger(layout.interleave),
  };
  // Interleaving is a setting "Load this layout" sets: the card names it (the layouts' control shows it).
  return layout.interleave > 1
    ? context.t(
        'fit.layout.settings_interleaved',
        'ZeRO {zero} · {interleave} interleaved stages per GPU · recompute: {recompute} · micro-batch {micro_batch}',
        values,
      )
    : context.t('fit.layout.settings', 'ZeRO {zero} · recompute: {recompute} · micro-batch {micro_batch}', values);
}

/** One card, built once and filled again on every answer (a new model changes every text, not the card). */
interface LayoutCard {
  readonly element: HTMLElement;
  show(layout: FitLayout, rank: number): void;
}

function layoutCard(context: SectionContext, load: (scenario: Scenario) => void): LayoutCard {
  const { t } = context;
  const { formatBytes, formatInteger } = context.units;
  const titleId = uniqueId('layout');
  const rank = h('span', { className: 'ts-fit-rank' });
  const name = h('span');
  const settings = h('p', { className: 'ts-fit-card-detail' });
  const figures = h('p', { className: 'ts-fit-card-detail' });
  let shown: FitLayout | null = null;
  const element = h(
    'li',
    { className: 'ts-fit-card' },
    h('p', { className: 'ts-fit-card-title', id: titleId }, rank, ' ', name),
    settings,
    figures,
    h(
      'button',
      {
        type: 'button',
        className: 'ts-button ts-button-quiet ts-fit-load',
        onclick: () => shown && load(shown.scenario),
        'aria-describedby': titleId,
      },
      t('fit.layout.load', 'Load this layout'),
    ),
  );
  return {
    element,
    show(layout, position) {
      shown = layout;
      setAttribute(element, 'data-peak', String(layout.peak_bytes));
      setAttribute(element, 'data-run-seconds', String(layout.run_seconds));
      setAttribute(element, 'data-interleave', String(layout.interleave));
      setText(rank, t('fit.layout.rank', '#{rank}', { rank: formatInteger(position) }));
      setText(name, layoutName(context, layout));
      setText(settings, layoutSettings(context, layout));
      const peak = t('fit.layout.peak', '{peak} per GPU', { peak: formatBytes(layout.peak_bytes) });
      setText(figures, `${peak} · ${runFigures(context, layout)}`);
    },
  };
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
  const cards: LayoutCard[] = [];
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
      while (cards.length < answer.layouts.length) cards.push(layoutCard(context, load));
      answer.layouts.forEach((layout, index) => cards[index].show(layout, index + 1));
      // The list changes only when the count does: the cards it keeps are filled in place.
      const shown = cards.slice(0, answer.layouts.length).map((card) => card.element);
      if (list.children.length !== shown.length || shown.some((card, index) => list.children[index] !== card)) replace(list, shown);
    },
  };
}
