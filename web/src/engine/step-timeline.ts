// The step timeline as the page reads it: the engine's stepTimelineColumns (docs/scenario.md,
// "Step timeline, in columns") turned into the same StepTimeline objects that parsing
// stepTimeline's JSON gives. The chart asks on every slider step, and 1,500 events as JSON cost
// more to write and parse than the timeline costs to compute; as numbers they cost a copy.
// Field names, their order and the phase and block names all come from the engine's summary.

import type { TrainscopeEngineModule } from './engine-module';
import { translator, type Translate } from '../i18n/i18n';
import type { StepTimeline } from './types';

/** What the summary adds to stepTimeline's fields: how to read the numbers. */
export interface ColumnsSummary extends StepTimeline {
  event_count?: number;
  event_fields?: string[];
  held_fields?: string[];
  phases?: string[];
  blocks?: string[];
}

/** The summary's JSON and the events' numbers → what JSON.parse(stepTimeline(…)) gives. */
export function stepTimelineFromColumns(summaryJson: string, numbers: ArrayLike<number>, t: Translate = translator(null)): StepTimeline {
  return stepTimelineFromSummary(JSON.parse(summaryJson) as ColumnsSummary, numbers, t);
}

/** The summary, already read (the page's view carries it inside its own JSON), and the events' numbers. */
export function stepTimelineFromSummary(
  summary: ColumnsSummary,
  numbers: ArrayLike<number>,
  t: Translate = translator(null),
): StepTimeline {
  const { event_count: count, event_fields: fields, held_fields: heldFields, phases, blocks, ...timeline } = summary;
  if ((timeline.errors && timeline.errors.length > 0) || count === undefined) return timeline;
  if (
    !Number.isInteger(count) ||
    !Array.isArray(fields) ||
    !Array.isArray(heldFields) ||
    !Array.isArray(phases) ||
    !Array.isArray(blocks)
  ) {
    return {
      errors: [{ field: 'stepTimeline', message: t('step.error.summary', 'the engine’s summary does not say how to read its events') }],
    };
  }
  const width = fields.length + heldFields.length;
  if (numbers.length !== count * width) {
    return {
      errors: [
        {
          field: 'stepTimeline',
          message: t('step.error.numbers', 'the engine gave {numbers} numbers for {events} events of {width}', {
            numbers: String(numbers.length),
            events: String(count),
            width: String(width),
          }),
        },
      ],
    };
  }
  const phaseAt = fields.indexOf('phase');
  const blockAt = fields.indexOf('block');
  const events: Array<Record<string, unknown>> = new Array(count);
  for (let event = 0, row = 0; event < count; event++, row += width) {
    const out: Record<string, unknown> = {};
    for (let f = 0; f < fields.length; f++) {
      const value = numbers[row + f];
      out[fields[f]] = f === phaseAt ? phases[value] : f === blockAt ? blocks[value] : value;
    }
    const held: Record<string, number> = {};
    for (let f = 0; f < heldFields.length; f++) held[heldFields[f]] = numbers[row + fields.length + f];
    out.held = held;
    events[event] = out;
  }
  return { ...timeline, events: events as unknown as StepTimeline['events'] };
}

/** The engine's step timeline for a scenario's JSON. Never throws: problems come back in `errors`. */
export function readStepTimeline(
  engineModule: TrainscopeEngineModule,
  scenarioJson: string,
  t: Translate = translator(null),
): StepTimeline {
  try {
    const summary = engineModule.stepTimelineColumns(scenarioJson);
    // The numbers view wasm memory, which the next engine call may reuse or move: copy them first.
    return stepTimelineFromColumns(summary, engineModule.stepTimelineNumbers().slice(), t);
  } catch (error) {
    return {
      errors: [
        {
          field: 'stepTimeline',
          message: t('step.error.unreadable', "the engine's answer could not be read ({reason})", {
            reason: error instanceof Error ? error.message : String(error),
          }),
        },
      ],
    };
  }
}
