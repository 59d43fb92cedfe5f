// The config.json the config section offers as an example (section 6).

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
