// The page's one engine call per input (src/engine/api/view.hpp, docs/scenario.md "The page's
// view"): the estimate, the "one whole copy" reference and, when asked, the parts only some
// sections draw (ViewParts), read from one answer. The reference comes with a key: given back,
// the engine skips computing a reference the page already holds.

import type { TrainscopeEngineModule } from './engine-module';
import type { Translate } from '../i18n/i18n';
import { stepTimelineFromSummary, type ColumnsSummary } from './step-timeline';
import type { Estimate, FieldError, StepTimeline, ViewText } from './types';

/** The engine's view of a scenario, or the fields it refused. */
export type EngineView =
  | { ok: false; errors: FieldError[] }
  | {
      ok: true;
      estimate: Estimate;
      /** The reference's estimate; null when the engine found it unchanged (the caller's, by `referenceKey`). */
      reference: Estimate | null;
      referenceKey: string;
      text: ViewText;
      /** Present when asked for. */
      step: StepTimeline | null;
      /** The parts asked for: the estimate carries those and no member of the others. */
      parts: ViewParts;
    };

interface ViewAnswer {
  errors?: FieldError[];
  estimate?: Estimate;
  reference?: { key: string; estimate?: Estimate; unchanged?: boolean; same?: boolean };
  text?: ViewText;
  step?: ColumnsSummary;
}

/** The parts of a view only some sections draw: the engine computes and writes each only when asked. */
export interface ViewParts {
  /** The step timeline (the step section's chart). */
  step: boolean;
  /** estimate.compute.time_over_gpus_communication, and communication's global_batch, stops_paying_* and summary (the time curve). */
  communicationCurve: boolean;
  /** estimate.communication.schedule: the step as phases in time (the step section's bar). */
  communicationSchedule: boolean;
}

export const NO_PARTS: ViewParts = { step: false, communicationCurve: false, communicationSchedule: false };

/** Every part either asks for. */
export function bothParts(a: ViewParts, b: Partial<ViewParts>): ViewParts {
  return {
    step: a.step || b.step === true,
    communicationCurve: a.communicationCurve || b.communicationCurve === true,
    communicationSchedule: a.communicationSchedule || b.communicationSchedule === true,
  };
}

/** Whether `held` has every part `wanted` asks for. */
export function holdsParts(held: ViewParts, wanted: ViewParts): boolean {
  return (
    (!wanted.step || held.step) &&
    (!wanted.communicationCurve || held.communicationCurve) &&
    (!wanted.communicationSchedule || held.communicationSchedule)
  );
}

/** What the engine's view call takes (src/bindings/engine_bindings.cpp maps it to api/view.hpp's ViewRequest). */
export interface ViewRequest extends ViewParts {
  /** The reference key of the view the caller holds ('' for none). */
  knownReference: string;
  /** The scenario fields the widget shows controls for, separated by spaces ('*', the default: all): notes name no other. */
  shownControls?: string;
}

export function readView(engineModule: TrainscopeEngineModule, scenarioJson: string, request: ViewRequest, t: Translate): EngineView {
  let answer: ViewAnswer;
  try {
    answer = JSON.parse(engineModule.view(scenarioJson, { ...request, shownControls: request.shownControls ?? '*' })) as ViewAnswer;
  } catch (error) {
    return {
      ok: false,
      errors: [
        {
          field: 'scenario',
          message: t('step.error.unreadable', "the engine's answer could not be read ({reason})", {
            reason: error instanceof Error ? error.message : String(error),
          }),
        },
      ],
    };
  }
  if (!answer.estimate || !answer.reference || (answer.errors && answer.errors.length > 0))
    return { ok: false, errors: answer.errors ?? [] };
  const { estimate, reference } = answer;
  // The numbers view wasm memory, which the next engine call may reuse or move: copied at once.
  const step = request.step && answer.step ? stepTimelineFromSummary(answer.step, engineModule.stepTimelineNumbers().slice(), t) : null;
  return {
    ok: true,
    estimate,
    referenceKey: reference.key,
    step,
    text: answer.text ?? { zero_formula: '' },
    parts: { step: request.step, communicationCurve: request.communicationCurve, communicationSchedule: request.communicationSchedule },
    reference: reference.unchanged ? null : reference.same ? estimate : (reference.estimate ?? estimate),
  };
}
