// config.json files as Hugging Face publishes them (model fields only; trimmed of tokenizer ids).
export const configs = {
  // meta-llama/Meta-Llama-3-8B
  llama3_8b: {
    _name_or_path: 'meta-llama/Meta-Llama-3-8B',
    architectures: ['LlamaForCausalLM'], attention_bias: false, attention_dropout: 0.0, hidden_act: 'silu',
    hidden_size: 4096, initializer_range: 0.02, intermediate_size: 14336, max_position_embeddings: 8192,
    model_type: 'llama', num_attention_heads: 32, num_hidden_layers: 32, num_key_value_heads: 8,
    rms_norm_eps: 1e-5, rope_theta: 500000.0, tie_word_embeddings: false, torch_dtype: 'bfloat16', vocab_size: 128256,
  },
  // openai-community/gpt2
  gpt2: {
    activation_function: 'gelu_new', architectures: ['GPT2LMHeadModel'], attn_pdrop: 0.1, embd_pdrop: 0.1,
    model_type: 'gpt2', n_ctx: 1024, n_embd: 768, n_head: 12, n_layer: 12, n_positions: 1024, resid_pdrop: 0.1,
    vocab_size: 50257,
  },
  // mistralai/Mixtral-8x7B-v0.1
  mixtral: {
    architectures: ['MixtralForCausalLM'], attention_dropout: 0.0, hidden_act: 'silu', hidden_size: 4096,
    intermediate_size: 14336, max_position_embeddings: 32768, model_type: 'mixtral', num_attention_heads: 32,
    num_experts_per_tok: 2, num_hidden_layers: 32, num_key_value_heads: 8, num_local_experts: 8,
    tie_word_embeddings: false, vocab_size: 32000,
  },
  // google/gemma-2b
  gemma: {
    architectures: ['GemmaForCausalLM'], attention_bias: false, head_dim: 256, hidden_act: 'gelu',
    hidden_size: 2048, intermediate_size: 16384, model_type: 'gemma', num_attention_heads: 8,
    num_hidden_layers: 18, num_key_value_heads: 1, vocab_size: 256000,
  },
};
