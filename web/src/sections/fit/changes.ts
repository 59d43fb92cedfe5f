// When the scenario does not fit: the engine's cheapest changes, each with its words, its time
// against the current layout's and "Apply"; and the reasons when a question has no answer.

import { h, replace, setHidden, uniqueId } from '../../dom/dom';
import type { FitAnswer, FitChange } from '../../engine/fit';
import type { Scenario } from '../../engine/types';
import type { SectionContext } from '../context';
import { layoutName, layoutSettings, runFigures } from './layouts';

function changeItem(context: SectionContext, change: FitChange, apply: (scenario: Scenario) => void): HTMLElement {
  const { t } = context;
  const { formatBytes, formatRatio } = context.units;
  const titleId = uniqueId('change');
  return h(
    'li',
    {
      className: 'ts-fit-card',
      'data-change': change.kind,
      'data-costs': change.costs,
      'data-field': change.field,
      'data-time-ratio': String(change.time_ratio ?? ''),
    },
    h('p', { className: 'ts-fit-card-title', id: titleId }, change.label),
    h(
      'p',
      { className: 'ts-fit-card-detail' },
      change.time_ratio === undefined
        ? t('fit.change.detail_other_run', '{peak} per GPU', { peak: formatBytes(change.peak_bytes) })
        : t('fit.change.detail', '{peak} per GPU · {ratio} the time of your layout', {
            peak: formatBytes(change.peak_bytes),
            ratio: formatRatio(change.time_ratio),
          }),
    ),
    h('p', { className: 'ts-fit-card-detail' }, runFigures(context, change)),
    change.layout
      ? h(
          'p',
          { className: 'ts-fit-card-detail', 'data-layout': 'new' },
          t('fit.change.layout', 'On another layout: {name} · {settings}', {
            name: layoutName(context, change.layout),
            settings: layoutSettings(context, change.layout),
          }),
        )
      : null,
    h(
      'button',
      {
        type: 'button',
        className: 'ts-button ts-button-quiet ts-fit-apply',
        onclick: () => apply(change.scenario),
        'aria-describedby': titleId,
      },
      t('fit.change.apply', 'Apply'),
    ),
  );
}

export interface ChangesView {
  readonly element: HTMLElement;
  update(answer: FitAnswer): void;
}

/** The engine's cost groups, in its order; a change of goal is another run, listed apart. */
function costGroups(context: SectionContext) {
  const { t } = context;
  return [
    { costs: 'nothing', title: t('fit.changes.costs_nothing', 'Costs nothing') },
    { costs: 'time', title: t('fit.changes.costs_time', 'Costs time: a longer run') },
    { costs: 'money', title: t('fit.changes.costs_money', 'Costs money: more or larger GPUs') },
  ] as const;
}

export function changesList(context: SectionContext, apply: (scenario: Scenario) => void): ChangesView {
  const { t } = context;
  const heading = h(context.headingTag(2), { className: 'ts-fit-subtitle' }, t('fit.changes.heading', 'Cheapest ways to make it fit'));
  const hint = h(
    'p',
    { className: 'ts-hint', 'data-figure': 'fit-changes-order' },
    t(
      'fit.changes.hint',
      'One change at a time, by what it costs you: nothing first, then time, then money; within each, the shortest run first. The time is against your layout’s run time.',
    ),
  );
  // One list in the engine's order; each cost starts with its label, a change of goal has a list of its own.
  const list = h('ol', { className: 'ts-fit-cards', 'data-figure': 'fit-changes' });
  const goalList = h('ol', { className: 'ts-fit-cards', 'data-figure': 'fit-goal-changes' });
  const goal = h(
    'div',
    { className: 'ts-fit-goal' },
    h(context.headingTag(3), { className: 'ts-fit-subtitle' }, t('fit.changes.goal_heading', 'Or change the goal')),
    h(
      'p',
      { className: 'ts-hint' },
      t('fit.changes.goal_hint', 'These make another run fit (another method, other tokens or shorter sequences), not the one you set.'),
    ),
    goalList,
  );
  const reasons = h('ul', { className: 'ts-fit-reasons', 'data-figure': 'fit-reasons' });
  const reasonsBlock = h('div', null, h('p', { className: 'ts-fit-reasons-label' }, t('fit.reasons.label', 'Why not:')), reasons);
  const changes = h('div', { className: 'ts-fit-changes' }, heading, hint, list, goal);
  // The current layout does not fit but another of the same GPUs does: the ranked list below is the answer.
  const otherLayouts = h(
    'p',
    { className: 'ts-fit-other-layouts' },
    t('fit.other_layouts', 'Other layouts of your GPUs fit: load one from the list below.'),
  );
  const element = h('div', null, otherLayouts, changes, reasonsBlock);
  const groups = costGroups(context);
  return {
    element,
    update(answer) {
      const same = answer.changes.filter((change) => change.costs !== 'goal');
      const other = answer.changes.filter((change) => change.costs === 'goal');
      setHidden(changes, answer.current.fits || answer.changes.length === 0);
      replace(
        list,
        same.map((change) => {
          const item = changeItem(context, change, apply);
          const group = groups.find((each) => each.costs === change.costs);
          if (group) item.prepend(h('p', { className: 'ts-fit-cost' }, group.title));
          return item;
        }),
      );
      setHidden(list, same.length === 0);
      replace(
        goalList,
        other.map((change) => changeItem(context, change, apply)),
      );
      setHidden(goal, other.length === 0);
      setHidden(otherLayouts, answer.current.fits || answer.layouts_total === 0);
      setHidden(reasonsBlock, answer.reasons.length === 0);
      replace(
        reasons,
        answer.reasons.map((reason) => h('li', { 'data-field': reason.field }, reason.message)),
      );
    },
  };
}
