// The step as the communication model sees it (docs/model.md §13): compute and each wait in
// time, one bar across, from the engine's `communication.schedule`, with a key naming each phase
// and its share of the step. Sizes are geometry; every number printed is an engine value.

import { h, setAttribute, setFigure, setHidden, setStyle, setText } from '../dom/dom';
import type { Communication } from '../engine/types';
import type { Units } from '../engine/units';
import type { Translate } from '../i18n/i18n';

/** The schedule's phases: compute, then the engine's eight terms in the order it lists them. */
const PHASES = [
  'compute',
  'pipeline_bubble',
  'pipeline_transfers',
  'tensor_parallel',
  'context_parallel',
  'expert_parallel',
  'data_parallel',
  'zero3_gathers',
  'offload_transfers',
] as const;
/** The schedule holds at most the first and last micro-batch alone, the rest as one run, and the step's own phases. */
const SEGMENTS = 24;

export function stepCommunication(t: Translate, units: Pick<Units, 'formatDuration' | 'formatPercent'>) {
  const { formatDuration } = units;
  const segments = Array.from({ length: SEGMENTS }, () => h('span', { className: 'ts-comm-segment' }));
  const bar = h('div', { className: 'ts-comm-bar', 'aria-hidden': 'true' }, segments);
  const keys = PHASES.map((phase) => {
    const value = h('strong', { 'data-figure': `comm-${phase}` });
    const name = h('span', { className: 'ts-comm-name' });
    const item = h('li', { className: 'ts-comm-key' }, h('span', { className: `ts-comm-swatch ts-comm-${phase}` }), name, value);
    return { phase, item, name, value };
  });
  const title = h('p', { className: 'ts-comm-title' });
  const element = h(
    'div',
    { className: 'ts-comm', 'data-figure': 'step-communication' },
    title,
    bar,
    h(
      'ul',
      { className: 'ts-comm-keys' },
      keys.map((key) => key.item),
    ),
  );

  /**
   * `chart`: the utilisation the chart above runs at, the one the learner set. The two steps are two
   * named things (issue 33): the chart's arithmetic at that utilisation (its length is the chart's
   * own, under it), this bar's at the engine's arithmetic efficiency plus what the GPUs wait for,
   * its time the one "What fits" counts.
   */
  function update(communication: Communication | undefined, chart?: { utilisation: number }): void {
    setHidden(element, !communication);
    if (!communication) return;
    const { schedule, step_seconds: stepSeconds } = communication;
    const predicted = t(
      'figures.comm.title_predicted',
      'The same step as the engine predicts it for this layout: {step}, its arithmetic at {efficiency} of peak plus what its GPUs wait for ({predicted} utilisation, as What fits times it).',
      {
        step: formatDuration(stepSeconds),
        efficiency: units.formatPercent(communication.arithmetic_efficiency),
        predicted: units.formatPercent(communication.predicted_mfu),
      },
    );
    setText(
      title,
      chart
        ? `${predicted} ${t(
            'figures.comm.title_chart_at',
            'The chart above runs the arithmetic at the {utilisation} utilisation you set.',
            {
              utilisation: units.formatPercent(chart.utilisation),
            },
          )}`
        : predicted,
    );
    setAttribute(element, 'data-value', String(stepSeconds));
    segments.forEach((segment, index) => {
      const phase = schedule[index];
      setHidden(segment, !phase);
      if (!phase) return;
      // Flex grows each stretch by its seconds; a minimum width keeps a short wait visible (the key states its time).
      setStyle(segment, 'flex-grow', String(stepSeconds > 0 ? phase.seconds / stepSeconds : 0));
      setAttribute(segment, 'class', `ts-comm-segment ts-comm-${phase.phase}`);
      setAttribute(segment, 'data-phase', phase.phase);
      setAttribute(segment, 'data-value', String(phase.seconds));
    });
    for (const key of keys) {
      const term = communication.terms.find((entry) => entry.id === key.phase);
      // What shows in the step: compute's own seconds, and each term's part that compute does not hide.
      const seconds = term ? term.exposed_seconds : communication.compute_seconds;
      setHidden(key.item, !(seconds > 0));
      setText(key.name, term ? term.label : t('figures.comm.compute', 'compute'));
      setFigure(key.value, formatDuration(seconds), seconds);
    }
  }
  return { element, update };
}
