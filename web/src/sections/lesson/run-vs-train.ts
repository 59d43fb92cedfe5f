// The lesson's first part: to run a model takes its weights, about 2 bytes per parameter; to train
// it takes about 16 plus activations. The run-vs-train figure (its two numbers first), then the
// model it is about: the picker sits under the figure, so the figure is on the first screen; then
// the lesson's stories, each landing on the part that tells it.

import type { Engine } from '../../engine/engine';
import { termsFor } from '../../figures/term';
import { memoryHeadline, runTrainSentence } from '../memory';
import { modelPicker, storyButtons } from '../model';
import type { PageView, SectionContext, SectionView } from '../context';
import { sectionElement } from '../shell';

export function runVsTrainPart(
  context: SectionContext,
  engine: Pick<Engine, 'presets' | 'stories'>,
  below: HTMLElement[],
): SectionView & { presetSelect: HTMLSelectElement } {
  const { t } = context;
  const sentence = runTrainSentence(context);
  const headline = memoryHeadline(context);
  const picker = modelPicker(context, engine);
  const element = sectionElement(
    context,
    'run-vs-train',
    t('lesson.run.heading', 'To run it, to train it'),
    'ts-section ts-lesson-part',
    sentence.element,
    headline.element,
    picker.element,
    storyButtons(context, engine.stories),
    below,
  );
  termsFor(t, context.language).markIn(sentence.element, ['activations']);
  const update = (view: PageView) => {
    sentence.update(view);
    headline.update(view);
    picker.update(view);
  };
  return { element, update, presetSelect: picker.presetSelect };
}
