// Reading a Hugging Face config.json into the engine's architecture fields. The page parses
// and maps names only; the engine counts the parameters. Anything it cannot use is reported
// by the config's own field name, so the learner knows which line to look at.

import type { Architecture } from './types';

export interface ConfigProblem {
  /** The config.json key the problem is about (or "config.json" for the whole file). */
  field: string;
  message: string;
}

export interface ConfigResult {
  architecture: Architecture | null;
  /** A short name for the model, from model_type / architectures / _name_or_path. */
  name: string;
  errors: ConfigProblem[];
  /** Things read or assumed that the learner may want to know about. */
  notes: string[];
}

type Json = Record<string, unknown>;

// Activations whose MLP is gated (SwiGLU/GeGLU: three matrices). HF names the SwiGLU
// activation "silu" (Llama, Mistral, Qwen2) or "swish"; the gate itself lives in the modelling code.
const GATED_ACTIVATIONS = new Set(['silu', 'swish', 'swiglu', 'geglu']);
const PLAIN_ACTIVATIONS = new Set(['gelu', 'gelu_new', 'gelu_fast', 'gelu_pytorch_tanh', 'relu', 'quick_gelu', 'gelu_python', 'tanh']);
// Model families whose MLP is gated whatever the activation is called (Gemma uses GeGLU with
// hidden_act "gelu_pytorch_tanh").
const GATED_MODEL_TYPES = new Set(['llama', 'mistral', 'mixtral', 'qwen2', 'qwen2_moe', 'qwen3', 'qwen3_moe', 'gemma', 'gemma2', 'gemma3_text', 'phi3', 'olmo', 'olmo2', 'deepseek_v2', 'deepseek_v3', 'granite', 'cohere', 'internlm2', 'yi']);

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where a JSON.parse error happened, in words a learner can use. */
function describeJsonError(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const position = /position (\d+)/.exec(message);
  if (position) {
    const index = Number(position[1]);
    const before = text.slice(0, index);
    const line = before.split('\n').length;
    const column = index - before.lastIndexOf('\n');
    return `not valid JSON (line ${line}, column ${column}): ${message.replace(/^JSON\.parse: /, '')}`;
  }
  return `not valid JSON: ${message}`;
}

export function parseHfConfig(text: string): ConfigResult {
  const result: ConfigResult = { architecture: null, name: 'your model', errors: [], notes: [] };
  const trimmed = text.trim();
  if (trimmed === '') {
    result.errors.push({ field: 'config.json', message: 'paste the contents of a config.json file' });
    return result;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch (error) {
    result.errors.push({ field: 'config.json', message: describeJsonError(trimmed, error) });
    return result;
  }
  if (!isObject(parsed)) {
    result.errors.push({ field: 'config.json', message: 'expected a JSON object ({ … }) with the model’s settings' });
    return result;
  }
  let config: Json = parsed;
  // Multimodal configs (Llama 4, Gemma 3, LLaVA) keep the language model in text_config.
  if (isObject(config.text_config) && config.num_hidden_layers === undefined && config.n_layer === undefined) {
    config = { ...config.text_config, model_type: config.text_config.model_type ?? config.model_type };
    result.notes.push('read the language model from text_config');
  }
  return mapConfig(config, parsed, result);
}

function mapConfig(config: Json, outer: Json, result: ConfigResult): ConfigResult {
  const errors = result.errors;
  const modelType = typeof config.model_type === 'string' ? config.model_type.toLowerCase() : '';
  const gpt2Style = config.n_layer !== undefined || config.n_embd !== undefined;

  /** Reads the first present key as a positive integer; records a field-named error otherwise. */
  const integer = (keys: string[], options: { required: boolean; fallback?: number }): number | undefined => {
    const key = keys.find((k) => config[k] !== undefined && config[k] !== null);
    if (key === undefined) {
      if (options.required) {
        const also = keys.length > 1 ? ` (also looked for ${keys.slice(1).join(', ')})` : '';
        errors.push({ field: keys[0], message: `missing: the engine needs it${also}` });
      }
      return options.fallback;
    }
    const value = config[key];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
      errors.push({ field: key, message: `must be a positive whole number, got ${JSON.stringify(value)}` });
      return undefined;
    }
    return value;
  };

  const layers = integer(['num_hidden_layers', 'n_layer', 'num_layers'], { required: true });
  const hidden = integer(['hidden_size', 'n_embd', 'd_model'], { required: true });
  const heads = integer(['num_attention_heads', 'n_head', 'num_heads'], { required: true });
  const vocab = integer(['vocab_size'], { required: true });
  let kvHeads = integer(['num_key_value_heads', 'num_kv_heads'], { required: false });
  if (kvHeads === undefined && config.multi_query === true) {
    kvHeads = 1;
    result.notes.push('multi_query: one key/value head');
  }
  if (kvHeads === undefined && heads !== undefined) {
    kvHeads = heads;
    if (!gpt2Style) result.notes.push('num_key_value_heads absent: one key/value head per attention head');
  }

  let mlp = integer(['intermediate_size', 'n_inner', 'ffn_dim'], { required: false });
  if (mlp === undefined && gpt2Style && hidden !== undefined && !errors.some((e) => e.field === 'n_embd')) {
    // GPT-2's config leaves n_inner null, which its modelling code reads as 4 × n_embd.
    mlp = 4 * hidden;
    result.notes.push('n_inner is null: GPT-2’s MLP is 4 × n_embd');
  } else if (mlp === undefined && !errors.some((e) => ['intermediate_size', 'n_inner', 'ffn_dim'].includes(e.field))) {
    errors.push({ field: 'intermediate_size', message: 'missing: the engine needs the MLP size (also looked for n_inner, ffn_dim)' });
  }

  // Gated (SwiGLU) or plain MLP, from the activation name and the model family.
  let gated: boolean | undefined;
  const activationKey = ['hidden_act', 'hidden_activation', 'activation_function'].find((k) => typeof config[k] === 'string');
  const activation = activationKey ? String(config[activationKey]).toLowerCase() : undefined;
  if (activation !== undefined && !GATED_ACTIVATIONS.has(activation) && !PLAIN_ACTIVATIONS.has(activation)) {
    errors.push({ field: activationKey!, message: `“${activation}” is not an activation this page knows (silu means a gated SwiGLU MLP; gelu a plain one)` });
  } else if (GATED_MODEL_TYPES.has(modelType)) gated = true;
  else if (activation !== undefined) gated = GATED_ACTIVATIONS.has(activation);
  else if (gpt2Style) gated = false;
  else errors.push({ field: 'hidden_act', message: 'missing: cannot tell a gated (silu) MLP from a plain (gelu) one' });

  // Hugging Face's PretrainedConfig ties embeddings unless told otherwise.
  let tied = true;
  if (config.tie_word_embeddings !== undefined) {
    if (typeof config.tie_word_embeddings !== 'boolean') {
      errors.push({ field: 'tie_word_embeddings', message: `must be true or false, got ${JSON.stringify(config.tie_word_embeddings)}` });
    } else tied = config.tie_word_embeddings;
  } else if (!gpt2Style) result.notes.push('tie_word_embeddings absent: tied, as Hugging Face assumes');

  // Learned absolute positions: GPT-2 style n_positions. RoPE models (max_position_embeddings) learn none.
  let learnedPositions = 0;
  if (gpt2Style) {
    const positions = integer(['n_positions', 'n_ctx'], { required: true });
    learnedPositions = positions ?? 0;
  }

  const biases = gpt2Style || config.attention_bias === true || config.mlp_bias === true || config.bias === true;
  const dropoutKeys = ['resid_pdrop', 'embd_pdrop', 'attn_pdrop', 'attention_dropout', 'hidden_dropout', 'dropout'];
  const dropout = dropoutKeys.some((k) => typeof config[k] === 'number' && (config[k] as number) > 0);

  const experts = integer(['num_local_experts', 'num_experts', 'n_routed_experts'], { required: false, fallback: 1 });
  const expertsPerToken = integer(['num_experts_per_tok', 'moe_top_k'], { required: false, fallback: 1 });
  if (experts !== undefined && expertsPerToken !== undefined && expertsPerToken > experts) {
    errors.push({ field: 'num_experts_per_tok', message: `${expertsPerToken} experts per token but only ${experts} experts` });
  }
  if (experts !== undefined && experts > 1 && config.moe_intermediate_size !== undefined) {
    result.notes.push('moe_intermediate_size is not used: every expert is taken to be intermediate_size wide');
  }
  if (heads !== undefined && hidden !== undefined && hidden % heads !== 0 && config.head_dim === undefined) {
    errors.push({ field: 'num_attention_heads', message: `${heads} heads do not divide hidden_size ${hidden}` });
  }
  if (kvHeads !== undefined && heads !== undefined && heads % kvHeads !== 0) {
    errors.push({ field: 'num_key_value_heads', message: `${kvHeads} key/value heads do not divide ${heads} attention heads` });
  }

  result.name = modelName(outer, modelType);
  if (errors.length > 0) return result;
  result.architecture = {
    layers: layers!, hidden: hidden!, heads: heads!, kv_heads: kvHeads!, mlp: mlp!, vocab: vocab!,
    gated_mlp: gated!, tied_embeddings: tied, learned_positions: learnedPositions, biases, dropout,
    experts: experts ?? 1, experts_per_token: expertsPerToken ?? 1,
  };
  return result;
}

function modelName(config: Json, modelType: string): string {
  if (typeof config._name_or_path === 'string' && config._name_or_path.trim() !== '') {
    return config._name_or_path.trim().split('/').pop()!;
  }
  if (Array.isArray(config.architectures) && typeof config.architectures[0] === 'string') {
    return config.architectures[0].replace(/For(CausalLM|ConditionalGeneration)$|LMHeadModel$/, '');
  }
  return modelType || 'your model';
}
