// The page's one engine call per input (src/engine/api/view.hpp, docs/scenario.md "The page's
// view"): the estimate, the "one whole copy" reference and, when asked, the step timeline, read
// from one answer. The reference comes with a key: given back, the engine skips computing a
// reference the page already holds.

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
    };

interface ViewAnswer {
  errors?: FieldError[];
  estimate?: Estimate;
  reference?: { key: string; estimate?: Estimate; unchanged?: boolean; same?: boolean };
  text?: ViewText;
  step?: ColumnsSummary;
}

export interface ViewRequest {
  /** The reference key of the view the caller holds ('' for none). */
  knownReference: string;
  /** Whether the step timeline is wanted (the step section is being drawn). */
  step: boolean;
  /** The scenario fields the widget shows controls for, separated by spaces ('*': all): notes name no other. */
  shownControls?: string;
}

export function readView(engineModule: TrainscopeEngineModule, scenarioJson: string, request: ViewRequest, t: Translate): EngineView {
  let answer: ViewAnswer;
  try {
    answer = JSON.parse(engineModule.view(scenarioJson, request.knownReference, request.step, request.shownControls ?? '*')) as ViewAnswer;
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
    reference: reference.unchanged ? null : reference.same ? estimate : (reference.estimate ?? estimate),
  };
}
