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

test("the precision part offers the frameworks and recipes in the engine's words and shows the process's overhead as the engine counts it", async () => {
  await withOpenPage(harness.browser, harness.url, {}, async (page) => {
    const part = page.locator('.ts-section[data-ts-section="precision"]');
    const choices = await page.evaluate(() =>
      JSON.parse(window.trainscope.engine.module.choices())['training.framework'].map((choice) => choice.label),
    );
    assert.deepEqual(await part.locator('[data-field="training.framework"] option').allTextContents(), choices);
    let estimate = await engineEstimate(page);
    assert.equal(await valueOf(page, 'cuda-context'), estimate.training.overhead.cuda_context);
    assert.equal(await valueOf(page, 'reserved'), estimate.training.overhead.reserved);
    assert.equal(await valueOf(page, 'in-use'), estimate.training.overhead.in_use);
    assert.ok(
      estimate.training.overhead.in_use > estimate.training.overhead.reserved,
      'nvidia-smi shows the context on top of what PyTorch reserves',
    );

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
    const open = await page.evaluate(() =>
      [...document.querySelectorAll('details.ts-deeper-part')].filter((details) => details.open).map((details) => details.dataset.tsDeeper),
    );
    assert.deepEqual(open, ['precision']);
    assert.equal(await page.locator('[data-field="training.framework"] select').inputValue(), 'litgpt');
    assert.equal(await page.locator('[data-field="training.precision_recipe"] select').inputValue(), 'pure');
  });
});

test("the one-GPU bar draws the CUDA context as its own slice beside the tensors, in the engine's figure", async () => {
  await withOpenPage(harness.browser, harness.url, {}, async (page) => {
    const estimate = await engineEstimate(page);
    const context = estimate.training.overhead.cuda_context;
    assert.ok(context > 0, 'the engine counts a CUDA context');
    const held = page
      .locator('.ts-section[data-ts-section="sharding"] .ts-bar')
      .filter({ has: page.locator('.ts-marker') })
      .first();
    const slice = held.locator('.ts-seg.ts-part-cuda_context');
    assert.ok(await slice.isVisible(), 'the context is a visible slice of the bar');
    // Its width is its share of the axis: the bar ends where the tensors and the context together end.
    const widths = await held.evaluate((bar) => {
      const track = bar.querySelector('.ts-bar-track').getBoundingClientRect().width;
      const visible = [...bar.querySelectorAll('.ts-seg')].filter((seg) => !seg.hidden);
      return {
        track,
        context: bar.querySelector('.ts-part-cuda_context').getBoundingClientRect().width,
        all: visible.reduce((sum, seg) => sum + seg.getBoundingClientRect().width, 0),
      };
    });
    const max = Math.max(estimate.training.per_gpu.total + context, estimate.gpu.memory_bytes);
    assert.ok(Math.abs(widths.context - (context / max) * widths.track) < 1.5, `context slice ${widths.context} px`);
    assert.ok(
      Math.abs(widths.all - ((estimate.training.per_gpu.total + context) / max) * widths.track) < 3,
      'the bar is tensors plus context',
    );
    const label = await held.getAttribute('aria-label');
    assert.match(label, /Its process adds [\d.,]+ (MB|GB) for the CUDA context/);
  });
});

test('the precision part says how close the engine is to measured runs, in the figures the engine carries', async () => {
  await withOpenPage(harness.browser, harness.url, {}, async (page) => {
    const summary = await page.evaluate(() => JSON.parse(window.trainscope.engine.module.validationSummary()));
    assert.ok(summary.runs_with_peak >= 40 && summary.projects >= 5, JSON.stringify(summary));
    const line = page.locator('.ts-section[data-ts-section="precision"] .ts-validation');
    assert.equal(Number(await line.getAttribute('data-value')), summary.median_error);
    const text = await line.textContent();
    assert.ok(text.includes(`${summary.runs_with_peak} peaks`) && text.includes(`${summary.projects} projects`), text);
    assert.ok(text.includes(`${(summary.median_error * 100).toFixed(1)}%`), `the median as a percentage: ${text}`);
    assert.match(text, /docs\/validation\.md/);
    // A practitioner asking what fits reads the same line under the framework its answers assume.
    assert.equal(await page.locator('.ts-section[data-ts-section="fit"] .ts-validation').textContent(), text);
  });
});
