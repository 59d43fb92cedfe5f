// How a method change treats the learner's tokens (web/src/widget/scenario-rules.ts, docs/model.md §15):
// full training counts a pre-training run, LoRA and QLoRA a fine-tuning run, so moving between them
// drops the tokens and the engine's default for the new method applies.
import test from 'node:test';
import assert from 'node:assert/strict';
import { withMethod, withValue } from '../../build/web-units/scenario-rules.mjs';

const resolvedWith = (method) => ({ training: { method, tokens: 15e12 } });

test('full training to LoRA drops the tokens, whoever set them', () => {
  const overrides = { model: { preset: 'llama3-8b' }, training: { tokens: 15e12 } };
  assert.deepEqual(withMethod(overrides, resolvedWith('full'), 'lora'), {
    model: { preset: 'llama3-8b' },
    training: { method: 'lora' },
  });
});

test('QLoRA back to full training drops the fine-tuning tokens', () => {
  const overrides = { training: { method: 'qlora', tokens: 2e8 } };
  assert.deepEqual(withMethod(overrides, resolvedWith('qlora'), 'full'), { training: { method: 'full' } });
});

test('LoRA to QLoRA keeps the tokens: the same fine-tuning data', () => {
  const overrides = { training: { method: 'lora', tokens: 2e8 } };
  assert.deepEqual(withMethod(overrides, resolvedWith('lora'), 'qlora'), { training: { method: 'qlora', tokens: 2e8 } });
});

test('the method control goes through the same rule', () => {
  const overrides = { training: { tokens: 3e12 } };
  assert.deepEqual(withValue(overrides, resolvedWith('full'), {}, 'training.method', 'qlora'), {
    training: { method: 'qlora' },
  });
});

test('one LoRA setting keeps the others on screen: the merge replaces training.lora whole', () => {
  const resolved = { training: { method: 'lora', lora: { rank: 8, targets: ['q', 'v'], base: 'bf16' } } };
  assert.deepEqual(withValue({ training: { method: 'lora' } }, resolved, {}, 'training.lora.rank', 64), {
    training: { method: 'lora', lora: { rank: 64, targets: ['q', 'v'], base: 'bf16' } },
  });
});

test('another method drops the base storage: LoRA’s 16-bit base is no QLoRA base (the engine’s defaults apply)', () => {
  const overrides = { training: { method: 'lora', lora: { rank: 16, targets: ['q'], base: 'bf16' } } };
  assert.deepEqual(withMethod(overrides, { training: { method: 'lora' } }, 'qlora'), {
    training: { method: 'qlora', lora: { rank: 16, targets: ['q'] } },
  });
});
