// Issue 32, on the page: the framework and precision recipe a run uses are choices in the engine's
// words (the "Precision, optimizer and serving" part), what a GPU process pays beside its tensors
// is shown as the engine counts it (CUDA context, reserved, in use), and "What fits" names the
// framework its answers assume. A shared link that sets the framework opens the part that shows it.
import test from 'node:test';
import assert from 'node:assert/strict';
import { engineEstimate, startHarness, withOpenPage } from './harness.mjs';

const harness = await startHarness();
test.after(() => harness.close());

const valueOf = (page, name) => page.locator(`[data-figure="${name}"]`).first().getAttribute('data-value').then(Number);

test('the precision part offers the frameworks and recipes in the engine\'s words and shows the process\'s overhead as the engine counts it', async () => {
  await withOpenPage(harness.browser, harness.url, {}, async (page) => {
    const part = page.locator('.ts-section[data-ts-section="precision"]');
    const choices = await page.evaluate(() => JSON.parse(window.trainscope.engine.module.choices())['training.framework'].map((choice) => choice.label));
    assert.deepEqual(await part.locator('[data-field="training.framework"] option').allTextContents(), choices);
    let estimate = await engineEstimate(page);
    assert.equal(await valueOf(page, 'cuda-context'), estimate.training.overhead.cuda_context);
    assert.equal(await valueOf(page, 'reserved'), estimate.training.overhead.reserved);
    assert.equal(await valueOf(page, 'in-use'), estimate.training.overhead.in_use);
    assert.ok(estimate.training.overhead.in_use > estimate.training.overhead.reserved, 'nvidia-smi shows the context on top of what PyTorch reserves');

    const before = estimate.training.per_gpu.total;
    await part.locator('[data-field="training.framework"] select').selectOption('hugging_face');
    await page.waitForFunction(() => window.trainscope.scenario().training.framework === 'hugging_face');
    estimate = await engineEstimate(page);
    assert.notEqual(estimate.training.per_gpu.total, before, 'eager PyTorch keeps other tensors than Megatron-Core');
    await page.waitForFunction(
      (value) => document.querySelector('[data-figure="reserved"]')?.getAttribute('data-value') === String(value),
      estimate.training.overhead.reserved,
    );
    // What fits says whose memory it assumes.
    await page.locator('[data-ts-section="fit"]').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelector('[data-figure="fit-framework"]')?.textContent.startsWith('Hugging Face'));
  });
});

test('a link that sets the framework opens the precision part on the lesson path', async () => {
  const address = `${harness.url}#s=${encodeURIComponent(JSON.stringify({ training: { framework: 'litgpt', precision_recipe: 'pure' } }))}`;
  await withOpenPage(harness.browser, address, { deeperClosed: true }, async (page) => {
    const open = await page.evaluate(() => [...document.querySelectorAll('details.ts-deeper-part')].filter((details) => details.open).map((details) => details.dataset.tsDeeper));
    assert.deepEqual(open, ['precision']);
    assert.equal(await page.locator('[data-field="training.framework"] select').inputValue(), 'litgpt');
    assert.equal(await page.locator('[data-field="training.precision_recipe"] select').inputValue(), 'pure');
  });
});
