// Section 3, the step: one training step on one GPU, played, paused and scrubbed. The engine's
// stepTimeline gives the events and what is held after each (docs/scenario.md, "Step timeline");
// this section draws them (figures/step-chart.ts), names the phase under the playhead in words
// (words.ts), moves the playhead (player.ts) and lists the phases (phase-table.ts). Built once,
// updated in place: a slider step rewrites one path per component and a few texts.

import { radioControl, selectControl } from '../../controls/controls';
import { h, setClass, setHidden, setText } from '../../dom/dom';
import type { Estimate } from '../../engine/types';
import { stepChart } from '../../figures/step-chart';
import { stepCommunication } from '../../figures/step-communication';
import { termsFor } from '../../figures/term';
import { zeroStageTerms } from '../sharding';
import { why } from '../../figures/why';
import { recomputeChoices, recomputeTerms } from '../activations';
import { type SectionContext, type SectionView } from '../context';
import { gpuControl } from '../gpus';
import { phaseTable } from './phase-table';
import { StepPlayer } from './player';
import { peakInWords, phaseGroups, readTimeline, type GoodTimeline, type Recompute } from './words';
import { prose, sectionElement } from '../shell';

/** The chart's data and labels for a timeline on the estimate's GPU. */
function chartData(context: SectionContext, timeline: GoodTimeline, estimate: Estimate, narrow: boolean) {
  const { t } = context;
  const { formatBytes, formatDuration } = context.units;
  const gpu = estimate.gpu.short_name;
  const memory = formatBytes(estimate.gpu.memory_bytes);
  return {
    events: timeline.events,
    seconds: timeline.seconds,
    peakEvent: timeline.peakEvent,
    peak: timeline.peak,
    memory: estimate.gpu.memory_bytes,
    memoryLabel: t('step.chart.memory', '{gpu} memory: {memory}', { gpu, memory }),
    narrow,
    label: t(
      'step.chart.label',
      'Memory held by one GPU through one training step of {step}: the peak is {peak}, the {gpu} has {memory}.',
      { step: formatDuration(timeline.seconds), peak: formatBytes(timeline.peak.total), gpu, memory },
    ),
  };
}

/** The communication bar and the phase table, each a part of the section with its own schedule. */
function belowTheChart(
  context: SectionContext,
  communication: ReturnType<typeof stepCommunication>,
  table: ReturnType<typeof phaseTable>,
): SectionView[] {
  const communicationPart: SectionView = {
    element: communication.element,
    update: ({ estimate, scenario }) => communication.update(estimate.communication, { utilisation: scenario.hardware.utilization }),
    needs: { communicationSchedule: true },
  };
  // A timeline the engine refused leaves the last good table, as it leaves the last good chart.
  const tablePart: SectionView = {
    element: table.element,
    update: ({ step }) => {
      const read = readTimeline(step ?? { errors: [] }, context);
      if ('good' in read) table.update(phaseGroups(read.good, context));
    },
    needs: { step: true },
  };
  return [communicationPart, tablePart];
}

/** What the step shows, in two sentences. */
function stepProse(context: SectionContext): HTMLElement {
  const { t } = context;
  return prose(
    t(
      'step.prose_1',
      'The totals above are one moment of a training step: its worst. Play a step on one GPU and watch the memory: the forward pass piles up each layer’s activations, the backward pass frees them as the gradients appear, and the optimizer step updates the weights. ',
    ),
    t(
      'step.prose_2',
      'Checkpointing flattens the pile and pays with recompute bumps; ZeRO-3 keeps a slice of the weights and gathers each layer’s just before it is used.',
    ),
  );
}

/** Checkpointing, the ZeRO stage and the GPUs, with the engine's sentence when the stage has nothing to shard. */
function stepControls(context: SectionContext, unsharded: HTMLElement): HTMLElement {
  const { t } = context;
  const terms = termsFor(t, context.language);
  return h(
    'div',
    { className: 'ts-panel-controls' },
    context.add(
      radioControl('training.recompute', t('controls.recompute', 'Activation checkpointing'), recomputeChoices(context), context.onValue),
    ).element,
    recomputeTerms(context, terms),
    context.add(
      selectControl(
        'parallel.zero_stage',
        t('controls.zero', 'Sharding (ZeRO stage)'),
        context.choices('parallel.zero_stage').map((stage) => ({ value: stage.value, label: stage.short ?? stage.label })),
        context.onValue,
      ),
    ).element,
    zeroStageTerms(context, terms),
    // Sharding needs more than one GPU: the same GPUs slider as the sharding and time sections.
    gpuControl(context),
    unsharded,
  );
}

/** Why the peak is where the backward pass begins, with its sources. */
function stepWhy(context: SectionContext): HTMLElement {
  const { t } = context;
  return why(
    t,
    t('step.why.summary', 'Why is the peak where the backward pass begins?'),
    [
      t(
        'step.why.body',
        'The backward pass needs every layer’s activations, and it runs from the last layer back to the first. So when the forward pass ends, all of them are held at once; from then on each layer’s activations are freed as its gradients are computed. Checkpointing keeps only each layer’s input and rebuilds the rest just before that layer’s backward pass, one layer at a time: the pile is lower, the step longer. ZeRO-3 holds only this GPU’s slice of the weights and gathers a layer’s full weights from the other GPUs just before each use, freeing them after.',
      ),
    ],
    t(
      'step.why.formula',
      'time of an event ≈ its FLOPs ÷ sustained FLOP/s (forward 2, backward 4, recompute 2 per parameter per token, plus attention); the optimizer step ≈ the bytes it touches ÷ memory bandwidth',
    ),
    t(
      'step.why.sources',
      'Korthikanti et al. 2022, “Reducing Activation Recomputation in Large Transformer Models”; Rajbhandari et al. 2020, “ZeRO”.',
    ),
  );
}

export function stepSection(context: SectionContext): SectionView {
  const { t } = context;
  const chart = stepChart(t, context.units);
  const player = new StepPlayer(context, chart, () => element.isConnected);
  const table = phaseTable(context);
  const peakText = h('p', { className: 'ts-step-peak-text', 'data-figure': 'step-peak-text' });
  const communication = stepCommunication(t, context.units);
  // The engine's sentence when the ZeRO stage on screen has no data-parallel GPUs to shard over.
  const unsharded = h('p', { className: 'ts-step-unsharded', 'data-figure': 'zero-unsharded' });
  const errors = h('p', { className: 'ts-errors ts-step-errors', role: 'alert' });
  errors.hidden = true;
  let drawn = false;

  // Redrawn in the input's own task, with every other figure: one style and layout pass for all
  // (redrawn in the next animation frame instead, it cost a second pass, ~1 ms more per step).
  // Off screen, the widget holds the update back until the input rests or the section comes near
  // (widget/section-views.ts), as it does for every section. The communication bar and the phase
  // table lie below the chart, most often below the fold while a control above is moved: parts of
  // their own (SectionView.parts), each redrawn when it is near, or once the input rests.
  const update: SectionView['update'] = ({ estimate, scenario, step, narrow, text }) => {
    setText(unsharded, text.zero_unsharded ?? '');
    setHidden(unsharded, !text.zero_unsharded);
    const read = readTimeline(step ?? { errors: [] }, context);
    if ('errors' in read) {
      // The last good chart stays, faded; the message names the field the engine refused.
      setText(
        errors,
        t('step.error', 'The step could not be drawn: {errors}. The chart still shows the last valid step.', {
          errors: read.errors.map((error) => `${error.field}: ${error.message}`).join('; '),
        }),
      );
      setHidden(errors, false);
      setClass(element, 'ts-step-stale', drawn);
      return;
    }
    setHidden(errors, true);
    setClass(element, 'ts-step-stale', false);
    drawn = true;
    chart.update(chartData(context, read.good, estimate, narrow));
    player.setTimeline(read.good, (scenario.training.recompute ?? 'none') as Recompute);
    setText(peakText, peakInWords(read.good, estimate, context));
  };

  const element = sectionElement(
    context,
    'step',
    t('step.heading', 'One training step: where the memory goes, layer by layer'),
    'ts-section ts-step',
    stepProse(context),
    h(
      'div',
      { className: 'ts-panel' },
      stepControls(context, unsharded),
      h(
        'div',
        { className: 'ts-step-main' },
        h(
          'figure',
          { className: 'ts-figure ts-step-figure' },
          errors,
          chart.element,
          player.elements,
          h('figcaption', null, peakText),
          communication.element,
        ),
        // Outside the figure: the table repeats the chart's figures on purpose, for those who cannot see it.
        table.element,
      ),
    ),
    stepWhy(context),
  );
  // Words at first sight (figures/term.ts), in the prose and the controls' legends.
  termsFor(t, context.language).markIn(element, ['activations', 'gradients', 'activation_checkpointing', 'zero']);
  return { element, update, needs: { step: true }, parts: belowTheChart(context, communication, table) };
}
