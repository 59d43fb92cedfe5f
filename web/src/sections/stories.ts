// Scenarios from the lesson, as data: what a learner gets from the "start from the lesson"
// buttons. Each is a partial scenario laid over the engine's defaults.

import type { Translate } from '../i18n/i18n';
import type { PartialScenario } from '../engine/types';

export interface Story {
  id: string;
  label: string;
  scenario: PartialScenario;
  source: string;
}

/** The stories, their labels and sources in the widget's language. */
export function stories(t: Translate): Story[] {
  return [
    {
      id: 'run-vs-train-70b',
      label: t('model.story.70b', '70B: run vs train'),
      scenario: { model: { preset: 'llama3-70b' } },
      source: t('model.story.70b_source', 'The lesson’s opening: a 70B model runs on one or two GPUs; training needs over a terabyte.'),
    },
    {
      id: 'llama3-405b',
      label: t('model.story.405b', 'Llama 3 405B as Meta trained it'),
      scenario: {
        model: { preset: 'llama3-405b' },
        training: { tokens: 15.6e12, sequence: 8192, sequence_parallel: true },
        parallel: { gpus: 16384, tensor: 8, pipeline: 16, zero_stage: 3 },
        hardware: { gpu: 'h100-sxm', utilization: 0.4 },
      },
      source: t('model.story.405b_source', 'The Llama 3 Herd of Models (Meta, 2024), §3.3: 15.6T tokens, 8,192-token sequences, up to 16,384 H100s as TP 8 × PP 16 × DP 128 with sharded states, 38–43% MFU; the lesson assumes 40%.'),
    },
  ];
}

/** GPT-2 small's config.json as Hugging Face publishes it (openai-community/gpt2), trimmed to the model fields. */
export const EXAMPLE_CONFIG = `{
  "architectures": ["GPT2LMHeadModel"],
  "model_type": "gpt2",
  "activation_function": "gelu_new",
  "n_ctx": 1024,
  "n_embd": 768,
  "n_head": 12,
  "n_layer": 12,
  "n_positions": 1024,
  "resid_pdrop": 0.1,
  "embd_pdrop": 0.1,
  "attn_pdrop": 0.1,
  "vocab_size": 50257
}`;
