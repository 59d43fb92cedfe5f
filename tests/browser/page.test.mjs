// The page in headless Chromium: it loads (http and file://), shows the lesson's figures, every
// figure equals the engine's own value, bad input gives messages, and nothing logs an error.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { engineEstimate, figure, fileUrl, repoRoot, startHarness, withOpenPage } from './harness.mjs';
import { engineModule } from '../web/wasm-engine.mjs';

// The engine's own writing of each figure (the page must show exactly this text; units.ts asks
// the engine the same way, with the same default significant figures).
const formatBytes = (value) => engineModule.formatQuantity(value, 'bytes', 0);
const formatRatio = (value) => engineModule.formatQuantity(value, 'ratio', 0);
const formatScientific = (value) => engineModule.formatQuantity(value, 'scientific', 2);
const formatDuration = (value) => engineModule.formatQuantity(value, 'duration', 0);

let harness;
before(async () => { harness = await startHarness(); });
after(async () => { await harness?.close(); });

function withPage(address, options, body) {
  return withOpenPage(harness.browser, address, options, body);
}

async function figureValue(page, name) {
  const element = figure(page, name);
  return { value: Number(await element.getAttribute('data-value')), text: (await element.textContent()).trim() };
}

test('the default page shows the lesson’s opening for Llama 3 70B without a click', async () => {
  await withPage(harness.url, {}, async (page) => {
    const estimate = await engineEstimate(page);
    assert.equal(estimate.params > 70e9 && estimate.params < 71e9, true, 'the default model is the 70B preset');
    assert.equal(await page.locator('select.ts-select').first().inputValue(), 'llama3-70b');

    const run = await figureValue(page, 'inference-total');
    assert.equal(run.value, estimate.inference.total);
    assert.equal(run.text, formatBytes(estimate.inference.total));
    const runGpus = await figureValue(page, 'inference-min-gpus');
    assert.ok(runGpus.value >= 1 && runGpus.value <= 2, 'runs on one or two GPUs');

    const train = await figureValue(page, 'training-total');
    assert.equal(train.value, estimate.training.per_gpu.total, 'one unsharded copy on one GPU is the whole training footprint');
    assert.ok(train.value > 1e12, 'training needs over a terabyte');
    assert.match(train.text, / TB$/);

    assert.equal((await figure(page, 'inference-bytes-per-param').textContent()).trim(), '2 bytes');
    assert.equal((await figure(page, 'training-bytes-per-param').textContent()).trim(), '16 bytes');
    const ratio = await figureValue(page, 'ratio');
    assert.equal(ratio.text, formatRatio(estimate.ratio_training_to_inference));
    assert.equal(ratio.text, '8×');
  });
});

test('moving controls changes the per-GPU memory to exactly the engine’s value', async () => {
  await withPage(harness.url, {}, async (page) => {
    const readPerGpu = () => figureValue(page, 'per-gpu-total');
    const before = await readPerGpu();

    await page.getByRole('radio', { name: /Stage 3/ }).first().check();
    await page.getByLabel('GPUs, exact number').first().fill('64');
    let shown = await readPerGpu();
    let estimate = await engineEstimate(page);
    assert.equal(estimate.scenario.parallel.gpus, 64);
    assert.equal(estimate.scenario.parallel.zero_stage, 3);
    assert.equal(shown.value, estimate.training.per_gpu.total);
    assert.equal(shown.text, formatBytes(estimate.training.per_gpu.total));
    assert.ok(shown.value < before.value, 'sharding over 64 GPUs lowers what each holds');

    // The slider, from the keyboard: two steps up (64 → 256 GPUs).
    const slider = page.getByRole('slider', { name: 'GPUs' }).first();
    await slider.focus();
    await slider.press('ArrowRight');
    await slider.press('ArrowRight');
    estimate = await engineEstimate(page);
    assert.equal(estimate.scenario.parallel.gpus, 256);
    const afterSlider = await readPerGpu();
    assert.equal(afterSlider.value, estimate.training.per_gpu.total);
    assert.ok(afterSlider.value < shown.value);
    assert.equal(await page.getByLabel('GPUs, exact number').first().inputValue(), '256');

    // Checkpointing: activations and recompute overhead follow the engine.
    // The activations section's (the step section repeats the choice beside its chart).
    await page.getByRole('radio', { name: /Full/ }).first().check();
    estimate = await engineEstimate(page);
    // The activations part sits below the quiz: off screen, it catches up when it comes near.
    await page.locator('[data-ts-section="activations"]').scrollIntoViewIfNeeded();
    await page.waitForFunction(
      (value) => document.querySelector('[data-figure="activations"]')?.getAttribute('data-value') === String(value),
      estimate.training.per_gpu.activations,
      { timeout: 5000 },
    );
    assert.equal((await figureValue(page, 'activations')).value, estimate.training.per_gpu.activations);
    assert.equal((await figureValue(page, 'activations-without-recompute')).value, estimate.training.activations_without_recompute);
    assert.equal((await figureValue(page, 'recompute-overhead')).value, estimate.compute.recompute_overhead);
    const saved = await figureValue(page, 'activations-saved');
    assert.equal(saved.value, estimate.training.activations_saved_by_recompute);
    assert.equal(saved.text, `${formatBytes(estimate.training.activations_saved_by_recompute)} saved on each GPU`);
    assert.ok(saved.value > 0, 'full checkpointing saves memory');
    assert.ok(estimate.compute.recompute_overhead > 0);
  });
});

test('the Llama 3 405B scenario reproduces the lesson’s compute and time', async () => {
  await withPage(harness.url, {}, async (page) => {
    await page.getByRole('button', { name: 'Llama 3 405B as Meta trained it' }).click();
    const estimate = await engineEstimate(page);
    assert.equal(estimate.scenario.model.preset, 'llama3-405b');
    assert.equal(estimate.scenario.training.tokens, 15.6e12);
    assert.equal(estimate.scenario.parallel.gpus, 16384);
    assert.equal(estimate.scenario.hardware.gpu, 'h100-sxm');
    // Issue 33: the story is the published run (the cluster layouts' button), at Meta's 41% MFU (Table 4).
    assert.equal(estimate.scenario.hardware.utilization, 0.41);
    assert.equal(estimate.scenario.parallel.zero_stage, 1);

    const flops = await figureValue(page, 'flops');
    assert.equal(flops.value, estimate.compute.flops);
    assert.equal(flops.text, '3.8 × 10²⁵', 'Meta reports about 3.8 × 10²⁵ FLOPs');
    assert.equal(flops.text, formatScientific(estimate.compute.flops));

    const days = await figureValue(page, 'seconds');
    assert.equal(days.value, estimate.compute.seconds);
    assert.equal(days.text, formatDuration(estimate.compute.seconds));
    assert.ok(Math.abs(days.value / 86400 - 68) < 2, `about 68 days, got ${days.text}`);
    assert.match(days.text, /days$/);

    const oneGpu = await figureValue(page, 'seconds-on-one-gpu');
    assert.equal(oneGpu.value, estimate.compute.seconds_on_one_gpu);
    const years = oneGpu.value / (365.25 * 86400);
    assert.ok(years > 2900 && years < 3200, `about 3,000 years, got ${oneGpu.text}`);
    assert.match(oneGpu.text, /years$/);
    assert.equal((await figureValue(page, 'fits')).text.includes('Fits'), estimate.training.fits);
  });
});

test('a broken hash gives a notice and the default scenario', async () => {
  await withPage(`${harness.url}#s=%7Bthis-is-not-json`, {}, async (page) => {
    const notice = page.getByRole('alert').filter({ hasText: 'not valid JSON' });
    await notice.waitFor();
    assert.match(await notice.textContent(), /default scenario/);
    const estimate = await engineEstimate(page);
    assert.equal(estimate.scenario.model.preset, 'llama3-70b');
    assert.equal((await figureValue(page, 'inference-total')).value, estimate.inference.total);
  });
});

test('a hash the engine refuses names the field and falls back to the defaults', async () => {
  const hash = `#s=${encodeURIComponent(JSON.stringify({ parallel: { gpus: 0 }, training: { recomput: 'full' } }))}`;
  await withPage(harness.url + hash, {}, async (page) => {
    const notice = page.getByRole('alert').filter({ hasText: 'problems' });
    await notice.waitFor();
    const text = await notice.textContent();
    assert.match(text, /parallel\.gpus/);
    assert.match(text, /training\.recomput/);
    const overrides = await page.evaluate(() => window.trainscope.overrides());
    assert.deepEqual(overrides, {});
  });
});

test('the scenario survives a reload through the URL hash', async () => {
  await withPage(harness.url, {}, async (page) => {
    await page.getByRole('radio', { name: /Stage 2/ }).first().check();
    await page.getByLabel('GPUs, exact number').first().fill('512');
    await page.waitForFunction(() => location.hash.startsWith('#s='));
    const shown = await figureValue(page, 'per-gpu-total');
    await page.reload();
    await page.waitForSelector('[data-ts-ready]');
    assert.equal(await page.getByRole('radio', { name: /Stage 2/ }).first().isChecked(), true);
    assert.equal(await page.getByLabel('GPUs, exact number').first().inputValue(), '512');
    assert.equal((await figureValue(page, 'per-gpu-total')).value, shown.value);
  });
});

test('an engine error is shown beside its field and the last good figures stay', async () => {
  await withPage(harness.url, {}, async (page) => {
    await page.locator('details.ts-deeper', { hasText: 'tensor, pipeline, context and expert' }).locator('summary').click();
    await page.getByLabel('Tensor parallel degree').selectOption('8');
    const good = await figureValue(page, 'per-gpu-total');
    await page.getByLabel('GPUs, exact number').first().fill('12');
    const error = page.locator('[data-field="parallel.gpus"] .ts-field-error').first();
    await error.waitFor();
    assert.match(await error.textContent(), /multiple of tensor/);
    assert.equal(await page.getByLabel('GPUs, exact number').first().getAttribute('aria-invalid'), 'true');
    assert.equal((await figureValue(page, 'per-gpu-total')).value, good.value, 'figures are not replaced by an invalid scenario');
    await page.getByLabel('GPUs, exact number').first().fill('16');
    await page.waitForFunction(() => document.querySelector('[data-field="parallel.gpus"] .ts-field-error').hidden);
    const estimate = await engineEstimate(page);
    assert.equal((await figureValue(page, 'per-gpu-total')).value, estimate.training.per_gpu.total);
  });
});

test('a typed value the page cannot read is a message beside the field', async () => {
  await withPage(harness.url, {}, async (page) => {
    await page.getByLabel(/Training tokens, exact number/).first().fill('15 bananas');
    const error = page.locator('[data-field="training.tokens"] .ts-field-error').first();
    await error.waitFor();
    // The engine's reader wrote this (the page has no reader of its own).
    assert.match(await error.textContent(), /know the unit "bananas"/);
    await page.getByLabel(/Training tokens, exact number/).first().fill('2T');
    assert.equal((await engineEstimate(page)).scenario.training.tokens, 2e12);
  });
});

test('a bad pasted config.json lists its problems by field name', async () => {
  await withPage(harness.url, {}, async (page) => {
    const before = await figureValue(page, 'params');
    const textarea = page.getByLabel('config.json');
    await textarea.fill(JSON.stringify({ hidden_size: 4096, num_attention_heads: 32, hidden_act: 'silu', intermediate_size: 'wide' }));
    await page.getByRole('button', { name: 'Use this model' }).click();
    const problems = page.locator('[data-config-field]');
    await problems.first().waitFor();
    const fields = await problems.evaluateAll((items) => items.map((item) => item.getAttribute('data-config-field')));
    assert.ok(fields.includes('num_hidden_layers'));
    assert.ok(fields.includes('vocab_size'));
    assert.ok(fields.includes('intermediate_size'));
    assert.equal(await textarea.getAttribute('aria-invalid'), 'true');
    assert.equal((await figureValue(page, 'params')).value, before.value, 'the model on screen is unchanged');

    await textarea.fill('{ "hidden_size": 4096, oops }');
    await page.getByRole('button', { name: 'Use this model' }).click();
    await page.locator('[data-config-field="config.json"]').waitFor();
  });
});

test('a good config.json drives every figure from the engine', async () => {
  await withPage(harness.url, {}, async (page) => {
    await page.getByRole('button', { name: /Try GPT-2/ }).click();
    await page.locator('.ts-config-ok').waitFor();
    const estimate = await engineEstimate(page);
    assert.ok(estimate.scenario.model.architecture, 'the scenario carries the architecture');
    assert.equal((await figureValue(page, 'params')).value, estimate.params);
    assert.ok(estimate.params > 120e6 && estimate.params < 130e6, 'GPT-2 small has about 124M parameters');
    assert.equal(await page.locator('select.ts-select').first().inputValue(), '__config');
  });
});

test('the page works from file:// too', async () => {
  await withPage(fileUrl, {}, async (page) => {
    const estimate = await engineEstimate(page);
    assert.equal((await figureValue(page, 'training-total')).value, estimate.training.per_gpu.total);
    await page.getByRole('radio', { name: /Stage 3/ }).first().check();
    assert.equal((await figureValue(page, 'per-gpu-total')).value, (await engineEstimate(page)).training.per_gpu.total);
  });
});

test('the widget mounts inside a shadow root with its styles', async () => {
  await withPage(harness.url, {}, async (page) => {
    const result = await page.evaluate(async () => {
      const host = document.createElement('div');
      document.body.appendChild(host);
      const shadow = host.attachShadow({ mode: 'open' });
      const handle = await window.mountTrainscope(shadow, { syncHash: false, scenario: { parallel: { gpus: 8, zero_stage: 3 } } });
      const title = shadow.querySelector('.ts-title');
      // Off-screen sections are built when they near the viewport or the browser is idle.
      host.scrollIntoView();
      let perGpu = null;
      for (let tries = 0; tries < 100 && !perGpu; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        perGpu = shadow.querySelector('[data-figure="per-gpu-total"]');
      }
      const expected = JSON.parse(handle.engine.module.estimate(JSON.stringify({ parallel: { gpus: 8, zero_stage: 3 } })));
      return {
        ready: shadow.querySelector('[data-ts-ready]') !== null,
        styled: getComputedStyle(title).fontWeight,
        container: getComputedStyle(shadow.querySelector('.ts-root')).maxWidth,
        perGpu: Number(perGpu.getAttribute('data-value')),
        expected: expected.training.per_gpu.total,
        hash: location.hash,
      };
    });
    assert.equal(result.ready, true);
    assert.equal(result.container, '1120px', 'the stylesheet applies inside the shadow root');
    assert.equal(result.perGpu, result.expected);
    assert.equal(result.hash, '', 'an embedded widget leaves the page address alone');
  });
});

test('nothing reaches the network and the bundle holds no remote URL', () => {
  const bundle = readFileSync(join(repoRoot, 'dist', 'trainscope.js'), 'utf8') + readFileSync(join(repoRoot, 'dist', 'index.html'), 'utf8');
  const remote = bundle.match(/https?:\/\/(?!127\.0\.0\.1)[a-z0-9.-]+\.[a-z]{2,}[^\s"'`)]*/gi) ?? [];
  // Emscripten's glue names its docs in comments only when unminified; the page itself loads nothing remote.
  // ADL's xAPI verb and activity-type IRIs (web/ship/xapi.ts) are names inside statements, never fetched.
  assert.deepEqual(remote.filter((url) => !/emscripten|w3\.org|^http:\/\/adlnet\.gov\/expapi\//.test(url)), []);
});

test('after many quick inputs the figures show the last one (speed is bench/page_bench.mjs’s)', async () => {
  await withPage(harness.url, {}, async (page) => {
    // The GPUs slider lives in sections built when they near the viewport.
    // Scrolled in one step: the placeholder is replaced by the section as it nears the viewport.
    await page.evaluate(() => document.querySelector('[data-ts-section="sharding"]').scrollIntoView());
    await page.waitForSelector('[data-ts-section="sharding"] [data-field="parallel.gpus"]');
    await page.evaluate(() => {
      const slider = document.querySelector('[data-ts-section="sharding"] [data-field="parallel.gpus"] input[type="range"]');
      for (let index = 0; index < 60; index += 1) {
        slider.value = String(index % 17);
        slider.dispatchEvent(new Event('input', { bubbles: true }));
      }
    });
    const estimate = await engineEstimate(page);
    assert.equal((await figureValue(page, 'per-gpu-total')).value, estimate.training.per_gpu.total);
  });
});

test('editing the hash by hand while the page is open reloads the scenario', async () => {
  await withPage(harness.url, {}, async (page) => {
    await page.evaluate(() => { location.hash = `#s=${encodeURIComponent(JSON.stringify({ parallel: { gpus: 32, zero_stage: 2 } }))}`; });
    await page.waitForFunction(() => window.trainscope.scenario().parallel.gpus === 32);
    assert.equal(await page.getByRole('radio', { name: /Stage 2/ }).first().isChecked(), true);
    const estimate = await engineEstimate(page);
    assert.equal((await figureValue(page, 'per-gpu-total')).value, estimate.training.per_gpu.total);
    await page.evaluate(() => { location.hash = '#s=%7Bbroken'; });
    await page.getByRole('alert').filter({ hasText: 'not valid JSON' }).waitFor();
    assert.equal(await page.evaluate(() => window.trainscope.scenario().parallel.gpus), 1, 'back to the defaults');
  });
});

test('a learner’s own GPU: its memory and peak drive the fit and the time', async () => {
  await withPage(harness.url, {}, async (page) => {
    // The time section's controls (the fit section has a GPU type and memory of its own, on the same fields).
    const time = page.locator('[data-ts-section="time"]');
    await time.getByLabel('GPU type').selectOption('custom');
    let estimate = await engineEstimate(page);
    assert.equal(estimate.scenario.hardware.gpu, 'custom');
    // The catalogue's H100 as the driver reports it (81,559 MiB: docs/model.md, the engine's GPU table).
    const h100 = await page.evaluate(() => window.trainscope.engine.gpus.find((gpu) => gpu.id === 'h100-sxm').memory_bytes);
    assert.equal(h100, 81559 * 2 ** 20);
    assert.equal(estimate.gpu.memory_bytes, h100, 'starts from the GPU that was on screen (H100)');

    await time.locator('summary', { hasText: 'your own GPU' }).click();
    await time.getByLabel('GPU memory, exact (e.g. 96 GB)').fill('40 GB');
    await time.getByLabel('GPU peak, exact (e.g. 1,200 TFLOP/s)').fill('500 TFLOP/s');
    estimate = await engineEstimate(page);
    assert.equal(estimate.gpu.memory_bytes, 40e9);
    assert.equal(estimate.gpu.peak_flops, 500e12);
    assert.equal((await figureValue(page, 'inference-total')).value, estimate.inference.total);
    assert.equal(estimate.inference.min_gpus, Math.ceil(estimate.inference.total / 40e9), 'running needs more of the smaller GPU');

    // Back to a catalogue GPU: its datasheet figures return.
    await time.getByLabel('GPU type').selectOption('a100-sxm-80');
    estimate = await engineEstimate(page);
    assert.equal(estimate.gpu.peak_flops, 312e12);
    assert.equal(estimate.scenario.hardware.memory_bytes, undefined);
  });
});

test('with ZeRO-3 the sharding legend adds up to the engine’s per-GPU total, gathered weights included', async () => {
  const scenario = { parallel: { gpus: 64, zero_stage: 3 }, training: { recompute: 'full' } };
  await withPage(`${harness.url}#s=${encodeURIComponent(JSON.stringify(scenario))}`, {}, async (page) => {
    await page.evaluate(() => document.querySelector('[data-ts-section="sharding"]')?.scrollIntoView());
    await page.waitForSelector('[data-ts-section="sharding"] .ts-legend-value[data-value]', { state: 'attached' });
    const estimate = await engineEstimate(page);
    assert.ok(estimate.training.per_gpu.gathered_weights > 0, 'the engine counts gathered weights at the ZeRO-3 peak');
    const sums = await page.evaluate(() => {
      const legendSum = (section) => [...document.querySelector(`[data-ts-section="${section}"]`)
        .querySelectorAll('.ts-legend-group, .ts-legend')].at(-1).querySelectorAll('li:not([hidden]) .ts-legend-value')
        .values().reduce((sum, value) => sum + Number(value.dataset.value), 0);
      return { sharding: legendSum('sharding'), gathered: [...document.querySelectorAll('[data-ts-section="sharding"] .ts-legend-name')].some((name) => name.textContent === 'Gathered weights' && !name.closest('li').hidden) };
    });
    assert.ok(sums.gathered, 'the sharding legend lists the gathered weights');
    // The legend lists the process's CUDA context beside the tensors (issue 32): the tensors plus it.
    const expected = estimate.training.per_gpu.total + estimate.training.overhead.cuda_context;
    assert.ok(Math.abs(sums.sharding - expected) <= 1e-9 * expected,
      `the sharding legend sums to ${sums.sharding}; the engine's per-GPU total and CUDA context are ${expected}`);
  });
});

test('the counting convention: FP32 gradients make 18 bytes, and both conventions are explained in the engine’s words', async () => {
  await withPage(harness.url, {}, async (page) => {
    // The precision part is open (the harness opens every deeper part), its conventions listed.
    const notes = page.locator('.ts-accounting-notes li');
    assert.equal(await notes.count(), 2);
    assert.equal((await figureValue(page, 'training-bytes-per-param')).value, 16);
    await page.locator('[data-field="training.accounting"] input[value="fp32_gradients"]').check();
    await page.waitForFunction(() => document.querySelector('[data-figure="training-bytes-per-param"]')?.getAttribute('data-value') === '18');
    const estimate = await engineEstimate(page);
    assert.equal(estimate.training.bytes_per_param.total, 18);
    assert.equal(await page.locator('.ts-accounting-notes .ts-current').textContent(), estimate.training.accounting.explanation);
    // The prose follows the estimate, not a 16 written into the page.
    assert.match(await page.locator('[data-figure="prose-training-bytes-per-param"]').textContent(), /^18 bytes$/);
    // With SGD and momentum each convention's sum is the optimizer's, as the engine writes it.
    await page.locator('[data-field="training.optimizer"] select').first().selectOption('sgd_momentum');
    const sgd = await engineEstimate(page);
    assert.notEqual(sgd.training.accounting.explanation, estimate.training.accounting.explanation, 'the sum follows the optimizer');
    await page.waitForFunction((text) => document.querySelector('.ts-accounting-notes .ts-current')?.textContent === text, sgd.training.accounting.explanation);
  });
});

test('a global batch larger than one round of micro-batches is accumulated: the engine’s count is shown', async () => {
  const scenario = { model: { preset: 'llama3-8b' }, parallel: { gpus: 8, zero_stage: 3 } };
  await withPage(`${harness.url}#s=${encodeURIComponent(JSON.stringify(scenario))}`, {}, async (page) => {
    await page.locator('[data-ts-section="activations"]').scrollIntoViewIfNeeded();
    await page.waitForSelector('[data-field="training.global_batch"]');
    assert.equal((await figureValue(page, 'micro-batches')).value, 1);
    await page.locator('[data-field="training.global_batch"] input.ts-number').fill('64');
    await page.locator('[data-field="training.global_batch"] input.ts-number').press('Enter');
    const estimate = await engineEstimate(page);
    assert.equal(estimate.scenario.training.global_batch, 64);
    assert.ok(estimate.step.micro_batches > 1, `64 sequences over 8 GPUs is several micro-batches: ${estimate.step.micro_batches}`);
    await page.waitForFunction((count) => document.querySelector('[data-figure="micro-batches"]')?.getAttribute('data-value') === String(count), estimate.step.micro_batches);
    assert.match(await figure(page, 'micro-batches').textContent(), new RegExp(`^${estimate.step.micro_batches} micro-batches`));
  });
});
