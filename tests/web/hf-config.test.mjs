// Reading Hugging Face config.json files into the engine's architecture fields: the page's
// parseHfConfig hands the text to the engine (src/engine/model/hf_config.cpp), run here as the real
// wasm module under node.
import test from 'node:test';
import assert from 'node:assert/strict';
import { parseHfConfig as parseWith } from '../../build/web-units/hf-config.mjs';
import { configs } from './configs.mjs';
import { engineModule as engine } from './wasm-engine.mjs';

const parseHfConfig = (text) => parseWith(text, engine);

test('a Llama 3 config maps every field, silu meaning a gated MLP', () => {
  const { architecture, errors, name } = parseHfConfig(JSON.stringify(configs.llama3_8b));
  assert.deepEqual(errors, []);
  assert.deepEqual(architecture, {
    layers: 32,
    hidden: 4096,
    heads: 32,
    kv_heads: 8,
    mlp: 14336,
    vocab: 128256,
    gated_mlp: true,
    tied_embeddings: false,
    learned_positions: 0,
    biases: false,
    dropout: false,
    experts: 1,
    experts_per_token: 1,
  });
  assert.equal(name, 'Meta-Llama-3-8B');
});

test('GPT-2 style names map, with learned positions, biases, dropout, tied embeddings and a 4h MLP', () => {
  const { architecture, errors, notes } = parseHfConfig(JSON.stringify(configs.gpt2));
  assert.deepEqual(errors, []);
  assert.equal(architecture.layers, 12);
  assert.equal(architecture.hidden, 768);
  assert.equal(architecture.heads, 12);
  assert.equal(architecture.kv_heads, 12);
  assert.equal(architecture.mlp, 3072);
  assert.equal(architecture.gated_mlp, false);
  assert.equal(architecture.learned_positions, 1024);
  assert.equal(architecture.tied_embeddings, true);
  assert.equal(architecture.biases, true);
  assert.equal(architecture.dropout, true);
  assert.ok(notes.some((note) => note.includes('n_inner')));
});

test('a mixture of experts keeps its expert counts', () => {
  const { architecture, errors } = parseHfConfig(JSON.stringify(configs.mixtral));
  assert.deepEqual(errors, []);
  assert.equal(architecture.experts, 8);
  assert.equal(architecture.experts_per_token, 2);
});

test('Gemma is gated even though its activation is called gelu', () => {
  const { architecture, errors } = parseHfConfig(JSON.stringify(configs.gemma));
  assert.deepEqual(errors, []);
  assert.equal(architecture.gated_mlp, true);
  assert.equal(architecture.tied_embeddings, true);
});

test('a multimodal config is read from its text_config', () => {
  const wrapped = { model_type: 'llava', text_config: configs.llama3_8b, vision_config: { hidden_size: 1024 } };
  const { architecture, errors, notes } = parseHfConfig(JSON.stringify(wrapped));
  assert.deepEqual(errors, []);
  assert.equal(architecture.layers, 32);
  assert.ok(notes.some((note) => note.includes('text_config')));
});

test('invalid JSON is reported with its line and column', () => {
  const { architecture, errors } = parseHfConfig('{\n  "hidden_size": 4096,\n  oops\n}');
  assert.equal(architecture, null);
  assert.equal(errors[0].field, 'config.json');
  assert.match(errors[0].message, /line 3/);
});

test('empty input and non-objects are reported', () => {
  assert.equal(parseHfConfig('   ').errors[0].field, 'config.json');
  assert.equal(parseHfConfig('[1, 2]').errors[0].field, 'config.json');
});

test('each missing or unusable field is named by its config.json key', () => {
  const broken = { ...configs.llama3_8b, hidden_size: 'big', hidden_act: 'mystery' };
  delete broken.num_hidden_layers;
  delete broken.vocab_size;
  const { architecture, errors } = parseHfConfig(JSON.stringify(broken));
  assert.equal(architecture, null);
  const fields = errors.map((error) => error.field).sort();
  assert.deepEqual(fields, ['hidden_act', 'hidden_size', 'num_hidden_layers', 'vocab_size']);
  assert.match(errors.find((e) => e.field === 'hidden_size').message, /"big"/);
});

test('inconsistent heads are caught before the engine sees them', () => {
  const { errors } = parseHfConfig(JSON.stringify({ ...configs.llama3_8b, num_key_value_heads: 5 }));
  assert.deepEqual(
    errors.map((e) => e.field),
    ['num_key_value_heads'],
  );
  const moe = parseHfConfig(JSON.stringify({ ...configs.mixtral, num_experts_per_tok: 9 }));
  assert.deepEqual(
    moe.errors.map((e) => e.field),
    ['num_experts_per_tok'],
  );
});

test('a config nested 20,000 levels deep is a field-named error, not a RangeError', () => {
  const deep = `{"a":${'['.repeat(20000)}${']'.repeat(20000)}}`;
  const { architecture, errors } = parseHfConfig(deep);
  assert.equal(architecture, null);
  assert.equal(errors.length, 1);
  assert.match(errors[0].message, /nested more than 64 levels deep/);
  assert.ok(errors[0].field.length + errors[0].message.length < 5000);
});

test('a 5 MB field value is named, and not echoed whole', () => {
  const { architecture, errors } = parseHfConfig(JSON.stringify({ ...configs.llama3_8b, hidden_size: 'x'.repeat(5 * 1024 * 1024) }));
  assert.equal(architecture, null);
  assert.deepEqual(
    errors.map((e) => e.field),
    ['hidden_size'],
  );
  assert.ok(errors[0].message.length < 200, `message of ${errors[0].message.length} characters`);
});

test('a key given twice is an error naming it, not the last copy silently', () => {
  const text = JSON.stringify(configs.llama3_8b).replace('"hidden_size":4096', '"hidden_size":4096,"hidden_size":8192');
  const { architecture, errors } = parseHfConfig(text);
  assert.equal(architecture, null);
  assert.deepEqual(
    errors.map((e) => e.field),
    ['hidden_size'],
  );
  assert.match(errors[0].message, /appears twice/);
});
