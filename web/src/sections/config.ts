// Section 6: your own model, from a Hugging Face config.json. Its result is redrawn only when
// the learner presses a button, never on a slider step.

import { h, replace, uniqueId } from '../dom/dom';
import { why } from '../figures/why';
import type { ConfigResult } from '../engine/hf-config';
import { withElements, type Translate } from '../i18n/i18n';
import type { Architecture, FieldError } from '../engine/types';
import type { SectionContext } from './context';
import { EXAMPLE_CONFIG } from './example-config';
import { prose, sectionElement } from './shell';

/** Applies a model read from a config: the engine's errors if it refuses it, else its parameter count. */
export type UseArchitecture = (architecture: Architecture, name: string) => { errors: FieldError[]; params: number };

/** What the section reads from a config.json, in a sentence. */
function configProse(t: Translate): HTMLElement {
  return prose(
    t(
      'config.prose',
      'Paste a model’s config.json from Hugging Face (its “Files” tab). The page reads the shape — layers, hidden size, heads, MLP size, vocabulary, experts — and the engine counts the parameters and redoes every figure above.',
    ),
  );
}

function configWhy(t: Translate): HTMLElement {
  return why(
    t,
    t('config.why.summary', 'What does the page read?'),
    [
      t(
        'config.why.body',
        'num_hidden_layers, hidden_size, num_attention_heads, num_key_value_heads, intermediate_size, vocab_size and tie_word_embeddings (or GPT-2’s n_layer, n_embd, n_head, n_positions). hidden_act “silu” means a gated SwiGLU MLP with three matrices; “gelu” a plain one with two. num_local_experts and num_experts_per_tok describe a mixture of experts: all experts count for memory, only the active ones for compute.',
      ),
    ],
    t(
      'config.why.formula',
      'parameters per layer ≈ attention (2h² + 2h²·kv/heads) + MLP (3·h·f gated, 2·h·f plain) × experts; plus embeddings V·h (twice if untied)',
    ),
    t(
      'config.why.sources',
      'Hugging Face Transformers configuration docs; Touvron et al. 2023 and Llama 3 (2024) for the gated MLP; Radford et al. 2019 for GPT-2.',
    ),
  );
}

/** The config's problems, or the engine's, under the text area. */
function showConfigErrors(textarea: HTMLTextAreaElement, result: HTMLElement, heading: string, errors: readonly FieldError[]): void {
  textarea.setAttribute('aria-invalid', 'true');
  replace(
    result,
    h('p', { className: 'ts-field-error' }, heading),
    h(
      'ul',
      { className: 'ts-errors ts-config-errors' },
      errors.map((error) => h('li', { 'data-config-field': error.field }, h('code', null, error.field), ': ', error.message)),
    ),
  );
}

/** The model now on screen: its name and parameter count, with what was read or assumed. */
function showConfigUsed(
  context: SectionContext,
  textarea: HTMLTextAreaElement,
  result: HTMLElement,
  parsed: ConfigResult,
  params: number,
): void {
  const { t } = context;
  textarea.removeAttribute('aria-invalid');
  replace(
    result,
    h(
      'p',
      { className: 'ts-config-ok' },
      h('span', { 'aria-hidden': 'true' }, '✓ '),
      withElements(t('config.using', 'Using {name}: {params} — every figure above now describes it.', { name: parsed.name }), {
        params: h('strong', null, t('model.params_value', '{count} parameters', { count: context.units.formatCount(params) })),
      }),
    ),
    parsed.notes.length > 0
      ? h(
          'ul',
          { className: 'ts-notes' },
          parsed.notes.map((note) => h('li', null, note)),
        )
      : null,
  );
}

export function configSection(
  context: SectionContext,
  readConfig: (text: string) => ConfigResult,
  useArchitecture: UseArchitecture,
): HTMLElement {
  const { t } = context;
  const textareaId = uniqueId('config');
  const errorsId = uniqueId('config-errors');
  const textarea = h('textarea', {
    id: textareaId,
    className: 'ts-textarea',
    rows: 8,
    spellcheck: 'false',
    autocomplete: 'off',
    placeholder: '{ "num_hidden_layers": 32, "hidden_size": 4096, … }',
    'aria-describedby': errorsId,
  });
  const result = h('div', { className: 'ts-config-result', id: errorsId, 'aria-live': 'polite' });
  const showErrors = (heading: string, errors: FieldError[]) => showConfigErrors(textarea, result, heading, errors);
  const useConfig = () => {
    const parsed = readConfig(textarea.value);
    if (parsed.errors.length > 0 || !parsed.architecture) {
      showErrors(t('config.errors_config', 'This config cannot be used yet:'), parsed.errors);
      return;
    }
    const check = useArchitecture(parsed.architecture, parsed.name);
    if (check.errors.length > 0) {
      showErrors(t('config.errors_engine', 'The engine cannot use this model:'), check.errors);
      return;
    }
    showConfigUsed(context, textarea, result, parsed, check.params);
  };
  return sectionElement(
    context,
    'config',
    t('config.heading', 'Your own model'),
    'ts-section',
    configProse(t),
    h(
      'div',
      { className: 'ts-control' },
      h('label', { for: textareaId, className: 'ts-label' }, 'config.json'),
      textarea,
      h(
        'div',
        { className: 'ts-button-row' },
        h(
          'button',
          { type: 'button', className: 'ts-button ts-button-primary', 'data-action': 'use-config', onclick: useConfig },
          t('config.use', 'Use this model'),
        ),
        h(
          'button',
          {
            type: 'button',
            className: 'ts-button ts-button-quiet',
            onclick: () => {
              textarea.value = EXAMPLE_CONFIG;
              useConfig();
            },
          },
          t('config.try_gpt2', 'Try GPT-2’s config'),
        ),
      ),
      result,
    ),
    configWhy(t),
  );
}
