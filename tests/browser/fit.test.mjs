// Issue 25, "What fits on my GPUs": one 24 GB card, eight H100s and a 1,024-GPU cluster each get
// what fits, ranked, and what to change; every number on screen is the engine's (an independent
// call to its fit and fineTuningMethods in the same page); loading a layout drives the rest of the
// widget; the address keeps the inputs; 320 px does not scroll sideways; German and Spanish.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { figure, openFit, startHarness, withOpenPage } from './harness.mjs';

/** Llama 3 8B on one RTX 4090 (24 GB, docs/model.md §7) with 2,048-token sequences. */
const ONE_CARD = { model: { preset: 'llama3-8b' }, hardware: { gpu: 'rtx-4090' }, parallel: { gpus: 1 }, training: { sequence: 2048 } };
const EIGHT_H100 = { model: { preset: 'llama3-8b' }, hardware: { gpu: 'h100-sxm' }, parallel: { gpus: 8 } };
const CLUSTER = { model: { preset: 'llama3-70b' }, hardware: { gpu: 'h100-sxm' }, parallel: { gpus: 1024 } };

let harness;
before(async () => {
  harness = await startHarness();
});
after(async () => {
  await harness?.close();
});

const withScenario = (scenario, prefix = '') => `${harness.url}${prefix}#s=${encodeURIComponent(JSON.stringify(scenario))}`;

/** The engine's own answers for the page's scenario, asked in the page. */
function engineFit(page) {
  return page.evaluate(() => {
    const module = window.trainscope.engine.module;
    const scenario = window.trainscope.scenario();
    return {
      fit: JSON.parse(module.fit(JSON.stringify({ scenario, max_layouts: 8 }))),
      methods: JSON.parse(module.fineTuningMethods(JSON.stringify(scenario))).methods,
    };
  });
}

test('one 24 GB card with Llama 3 8B: full training does not fit, QLoRA does, and the changes say so', async () => {
  await withOpenPage(harness.browser, withScenario(ONE_CARD), {}, async (page) => {
    const section = await openFit(page);
    const { fit, methods } = await engineFit(page);
    assert.equal(fit.current.fits, false);
    assert.equal(await figure(page, 'fit-current').getAttribute('data-value'), 'false');
    assert.equal(Number(await figure(page, 'fit-largest-micro-batch').getAttribute('data-value')), fit.largest_micro_batch.value);
    const kinds = await section
      .locator('[data-figure="fit-changes"] > li, [data-figure="fit-goal-changes"] > li')
      .evaluateAll((items) => items.map((item) => item.dataset.change));
    assert.deepEqual(
      kinds,
      fit.changes.map((change) => change.kind),
      'the engine’s changes, in its order',
    );
    assert.ok(kinds.includes('method'), 'a fine-tuning method is among the changes');
    const labels = await section.locator('.ts-fit-changes .ts-fit-card-title').allTextContents();
    assert.ok(
      labels.some((label) => /QLoRA|LoRA/.test(label)),
      `LoRA or QLoRA is offered: ${labels.join(' | ')}`,
    );
    const columns = section.locator('[data-figure="fit-methods"] .ts-fit-method');
    assert.deepEqual(await columns.evaluateAll((items) => items.map((item) => item.dataset.method)), ['full', 'lora', 'qlora']);
    assert.deepEqual(
      await columns.evaluateAll((items) => items.map((item) => item.dataset.fits)),
      methods.map((method) => String(method.fits)),
    );
    assert.deepEqual(
      await columns.evaluateAll((items) => items.map((item) => Number(item.dataset.peak))),
      methods.map((method) => method.peak_bytes),
    );
    assert.equal(methods[0].fits, false, 'full training of 8B needs ≈16 bytes per parameter, ≈128 GB');
    assert.equal(methods[2].fits, true, 'QLoRA’s 4-bit base fits 24 GB');
  });
});

test('eight H100s with Llama 3 8B: the ranked layouts are the engine’s, fastest first', async () => {
  await withOpenPage(harness.browser, withScenario(EIGHT_H100), {}, async (page) => {
    const section = await openFit(page);
    const { fit } = await engineFit(page);
    assert.ok(fit.layouts_total > 0);
    assert.equal(Number(await figure(page, 'fit-layouts').getAttribute('data-value')), fit.layouts_total);
    const cards = section.locator('[data-figure="fit-layouts"] li');
    assert.equal(await cards.count(), fit.layouts.length);
    const peaks = await cards.evaluateAll((items) => items.map((item) => Number(item.dataset.peak)));
    assert.deepEqual(
      peaks,
      fit.layouts.map((layout) => layout.peak_bytes),
    );
    const runs = await cards.evaluateAll((items) => items.map((item) => Number(item.dataset.runSeconds)));
    assert.deepEqual(
      runs,
      [...runs].sort((a, b) => a - b),
      'fastest run first',
    );
  });
});

test('1,024 H100s with Llama 3 70B: layouts fit, and the largest micro-batch is the engine’s', async () => {
  await withOpenPage(harness.browser, withScenario(CLUSTER), {}, async (page) => {
    const section = await openFit(page);
    const { fit } = await engineFit(page);
    assert.ok(fit.layouts_total > 0, 'some layout of 1,024 H100s trains 70B');
    assert.equal(Number(await figure(page, 'fit-layouts').getAttribute('data-value')), fit.layouts_total);
    assert.equal(Number(await figure(page, 'fit-largest-micro-batch').getAttribute('data-value')), fit.largest_micro_batch.value);
    assert.equal(await section.locator('[data-figure="fit-layouts"] li').count(), fit.layouts.length);
  });
});

test('eight H100s with Llama 3 405B: no layout fits, so QLoRA comes with a layout of its own, and Apply loads both', async () => {
  const scenario = { model: { preset: 'llama3-405b' }, hardware: { gpu: 'h100-sxm' }, parallel: { gpus: 8 } };
  await withOpenPage(harness.browser, withScenario(scenario), {}, async (page) => {
    const section = await openFit(page);
    const { fit } = await engineFit(page);
    assert.equal(fit.layouts_total, 0, 'no layout of eight H100s trains 405B in full');
    const qlora = fit.changes.find((change) => change.kind === 'method');
    assert.ok(qlora?.layout, 'the method change carries the layout it fits on');
    const card = section.locator('.ts-fit-changes li[data-change="method"]');
    const layoutLine = await card.locator('[data-layout="new"]').textContent();
    assert.match(layoutLine, new RegExp(`TP ${qlora.layout.tensor} × PP ${qlora.layout.pipeline} × CP ${qlora.layout.context}`));
    assert.match(layoutLine, new RegExp(`ZeRO ${qlora.layout.zero_stage}`));
    // A change that fits at the scenario's own layout shows no layout line.
    for (const change of fit.changes.filter((each) => !each.layout))
      assert.equal(await section.locator(`.ts-fit-changes li[data-change="${change.kind}"] [data-layout]`).count(), 0);
    await card.getByRole('button', { name: 'Apply' }).click();
    const loaded = await page.evaluate(() => window.trainscope.scenario());
    assert.equal(loaded.training.method, 'qlora');
    for (const field of ['tensor', 'pipeline', 'context', 'zero_stage']) assert.equal(loaded.parallel[field], qlora.layout[field], field);
    const estimate = await page.evaluate(
      (applied) => JSON.parse(window.trainscope.engine.module.estimate(JSON.stringify(applied))),
      loaded,
    );
    assert.equal(estimate.training.fits, true, 'the applied change fits, as the card said');
  });
});

test('“Load this layout” loads it into the widget, and Back brings the scenario before it', async () => {
  await withOpenPage(harness.browser, withScenario(EIGHT_H100), {}, async (page) => {
    const section = await openFit(page);
    const { fit } = await engineFit(page);
    const chosen = fit.layouts[0];
    const before = await page.evaluate(() => window.trainscope.overrides());
    await section.locator('[data-figure="fit-layouts"] li').first().getByRole('button', { name: 'Load this layout' }).click();
    const loaded = await page.evaluate(() => window.trainscope.scenario());
    for (const field of ['tensor', 'pipeline', 'context', 'expert', 'zero_stage'])
      assert.equal(loaded.parallel[field], chosen.scenario.parallel[field], field);
    assert.equal(loaded.training.micro_batch, chosen.scenario.training.micro_batch);
    const expected = await page.evaluate(
      (scenario) => JSON.parse(window.trainscope.engine.module.estimate(JSON.stringify(scenario))),
      chosen.scenario,
    );
    assert.equal(expected.training.fits, true);
    await page.locator('[data-ts-section="sharding"]').scrollIntoViewIfNeeded();
    await page.waitForFunction(
      (total) => document.querySelector('[data-figure="per-gpu-total"]')?.getAttribute('data-value') === String(total),
      expected.training.per_gpu.total,
    );
    await page.locator('[data-ts-section="time"]').scrollIntoViewIfNeeded();
    await page.waitForFunction(
      (seconds) => document.querySelector('[data-figure="seconds"]')?.getAttribute('data-value') === String(seconds),
      expected.compute.seconds,
    );
    await page.goBack();
    await page.waitForFunction((overrides) => JSON.stringify(window.trainscope.overrides()) === overrides, JSON.stringify(before));
  });
});

test('the address keeps the GPUs and the method after a reload', async () => {
  await withOpenPage(harness.browser, withScenario(EIGHT_H100), {}, async (page) => {
    const section = await openFit(page);
    await section.getByRole('radio', { name: /^QLoRA/ }).check();
    await page.waitForFunction(() => decodeURIComponent(window.location.hash).includes('"method":"qlora"'));
    await page.reload();
    await page.waitForSelector('[data-ts-ready]');
    const reloaded = await openFit(page);
    assert.equal(await reloaded.getByRole('radio', { name: /^QLoRA/ }).isChecked(), true);
    const scenario = await page.evaluate(() => window.trainscope.scenario());
    assert.equal(scenario.training.method, 'qlora');
    assert.equal(scenario.hardware.gpu, 'h100-sxm');
    assert.equal(scenario.parallel.gpus, 8);
    // The memory section shows the fine-tuning figures, each the estimate's field.
    const estimate = await page.evaluate(() => window.trainscope.estimate());
    const tuning = estimate.training.fine_tuning;
    assert.equal(Number(await figure(page, 'trainable-params').getAttribute('data-value')), tuning.trainable_params);
    assert.equal(Number(await figure(page, 'base-bytes-per-param').getAttribute('data-value')), tuning.base_bytes_per_param);
    assert.equal(Number(await figure(page, 'adapter-checkpoint').getAttribute('data-value')), tuning.checkpoint_bytes);
  });
});

test('switching to QLoRA counts a fine-tuning run’s tokens: the time reads in hours and says which tokens', async () => {
  // docs/model.md §15: without tokens of their own, LoRA and QLoRA count QLoRA's Guanaco run (1,875 × 16 × 528).
  await withOpenPage(harness.browser, withScenario({ ...ONE_CARD, training: { ...ONE_CARD.training, tokens: 3e12 } }), {}, async (page) => {
    const section = await openFit(page);
    await section.getByRole('radio', { name: /^QLoRA/ }).check();
    await page.waitForFunction(() => window.trainscope.scenario().training.method === 'qlora');
    const overrides = await page.evaluate(() => window.trainscope.overrides());
    assert.equal(overrides.training.tokens, undefined, 'the pre-training tokens are dropped with the goal');
    const estimate = await page.evaluate(() => window.trainscope.estimate());
    assert.equal(estimate.scenario.training.tokens, 1875 * 16 * 528);
    assert.ok(estimate.compute.seconds < 24 * 3600, 'hours, not years');
    await page.locator('[data-ts-section="time"]').scrollIntoViewIfNeeded();
    await page.waitForFunction(
      (seconds) => document.querySelector('[data-figure="seconds"]')?.getAttribute('data-value') === String(seconds),
      estimate.compute.seconds,
    );
    assert.equal((await figure(page, 'tokens-origin').textContent()).trim(), estimate.compute.tokens_origin);
    assert.match(estimate.compute.tokens_origin, /Guanaco/);
    // The side-by-side times every method on the same tokens, the engine's.
    const { methods } = await engineFit(page);
    const times = await section
      .locator('[data-figure="fit-method-time"]')
      .evaluateAll((items) => items.map((item) => Number(item.getAttribute('data-value'))));
    assert.deepEqual(
      times,
      methods.map((method) => method.run_seconds),
    );
  });
});

/** The page's estimate and an independent engine estimate of the page's scenario. */
async function estimates(page) {
  return page.evaluate(() => ({
    shown: window.trainscope.estimate(),
    engine: JSON.parse(window.trainscope.engine.module.estimate(JSON.stringify(window.trainscope.scenario()))),
  }));
}

test('LoRA’s rank, matrices and base storage change the figures as the engine says, and a reload keeps them', async () => {
  const lora = { ...EIGHT_H100, training: { method: 'lora' } };
  await withOpenPage(harness.browser, withScenario(lora), {}, async (page) => {
    const section = await openFit(page);
    const rank = section.locator('[data-field="training.lora.rank"] input[type="text"]');
    assert.equal(await rank.inputValue(), '8', 'the engine’s default rank (PEFT’s)');
    const before = (await estimates(page)).shown.training.fine_tuning.trainable_params;
    await rank.fill('64');
    await page.waitForFunction(() => window.trainscope.scenario().training.lora?.rank === 64);
    await section.locator('[data-field="training.lora.targets"] input[value="k"]').check();
    await page.waitForFunction(() => window.trainscope.scenario().training.lora?.targets?.includes('k'));
    await section.locator('[data-field="training.lora.base"] input[value="nf4"]').check();
    await page.waitForFunction(() => window.trainscope.scenario().training.lora?.base === 'nf4');
    const { shown, engine } = await estimates(page);
    assert.deepEqual(shown.scenario.training.lora, { rank: 64, targets: ['q', 'k', 'v'], base: 'nf4' });
    assert.ok(engine.training.fine_tuning.trainable_params > before, 'more adapters at rank 64 on q, k and v');
    // The memory section, off screen, catches up when it comes near.
    await page.locator('[data-ts-section="precision"]').scrollIntoViewIfNeeded();
    for (const [name, value] of [
      ['trainable-params', engine.training.fine_tuning.trainable_params],
      ['base-bytes-per-param', engine.training.fine_tuning.base_bytes_per_param],
    ])
      await page.waitForFunction(
        ([name, value]) => document.querySelector(`[data-figure="${name}"]`)?.getAttribute('data-value') === String(value),
        [name, value],
      );
    await page.waitForFunction(() => decodeURIComponent(window.location.hash).includes('"base":"nf4"'));
    await page.reload();
    await page.waitForSelector('[data-ts-ready]');
    const reloaded = await openFit(page);
    assert.equal(await reloaded.locator('[data-field="training.lora.rank"] input[type="text"]').inputValue(), '64');
    assert.equal(await reloaded.locator('[data-field="training.lora.targets"] input[value="k"]').isChecked(), true);
    assert.equal(await reloaded.locator('[data-field="training.lora.base"] input[value="nf4"]').isChecked(), true);
  });
});

test('QLoRA offers only the NF4 storages the engine marks; full training shows no LoRA settings', async () => {
  await withOpenPage(harness.browser, withScenario({ ...EIGHT_H100, training: { method: 'qlora' } }), {}, async (page) => {
    const section = await openFit(page);
    const choices = await page.evaluate(() => window.trainscope.engine.choices['training.lora.base']);
    const visible = await section
      .locator('[data-field="training.lora.base"] input')
      .evaluateAll((inputs) => inputs.filter((input) => input.closest('label').checkVisibility()).map((input) => input.value));
    assert.deepEqual(
      visible,
      choices.filter((choice) => choice.qlora).map((choice) => choice.value),
    );
    await section.getByRole('radio', { name: /^Full training/ }).check();
    await page.waitForFunction(() => window.trainscope.scenario().training.method === 'full');
    assert.equal(await section.locator('[data-field="training.lora.rank"]').isVisible(), false);
  });
});

test('offload: the optimizer leaves the GPU with the ZeRO stage it needs, the memory section says what and the PCIe time', async () => {
  await withOpenPage(harness.browser, withScenario(EIGHT_H100), {}, async (page) => {
    const section = await openFit(page);
    assert.equal(await figure(page, 'offload').isVisible(), false, 'nothing offloaded, no sentence');
    await section.locator('[data-field="training.offload"] input[value="optimizer"]').check();
    await page.waitForFunction(() => window.trainscope.scenario().training.offload === 'optimizer');
    const { shown, engine } = await estimates(page);
    const least = (await page.evaluate(() => window.trainscope.engine.choices['training.offload'])).find(
      (choice) => choice.value === 'optimizer',
    ).zero_stage;
    assert.ok(shown.scenario.parallel.zero_stage >= least, 'ZeRO raised to what offload needs');
    const offload = engine.training.offload;
    assert.ok(offload.cpu_per_gpu.optimizer_states > 0);
    await page.locator('[data-ts-section="precision"]').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelector('[data-figure="offload"]')?.checkVisibility());
    for (const [name, value] of [
      ['offload-cpu-per-gpu', offload.cpu_per_gpu.total],
      ['offload-cpu-node', offload.cpu_bytes_per_node],
      ['offload-to-cpu', offload.to_cpu_bytes],
      ['offload-to-gpu', offload.to_gpu_bytes],
      ['offload-pcie-seconds', offload.pcie_seconds],
    ])
      assert.equal(Number(await figure(page, name).getAttribute('data-value')), value, name);
    await page.waitForFunction(() => decodeURIComponent(window.location.hash).includes('"offload":"optimizer"'));
    await page.reload();
    await page.waitForSelector('[data-ts-ready]');
    const reloaded = await openFit(page);
    assert.equal(await reloaded.locator('[data-field="training.offload"] input[value="optimizer"]').isChecked(), true);
  });
});

test('at 320 px the method’s settings and the offload sentence do not scroll sideways', async () => {
  const scenario = {
    ...ONE_CARD,
    training: { ...ONE_CARD.training, method: 'qlora', offload: 'optimizer' },
    parallel: { gpus: 1, zero_stage: 1 },
  };
  await withOpenPage(harness.browser, withScenario(scenario), { viewport: { width: 320, height: 800 } }, async (page) => {
    await openFit(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0);
    const wide = await page
      .locator('section.ts-fit .ts-fit-inputs *, [data-figure="offload"] *')
      .evaluateAll((elements) =>
        elements
          .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
          .map((element) => element.className || element.tagName),
      );
    assert.deepEqual(wide, []);
  });
});

test('at 320 px the section does not scroll sideways', async () => {
  await withOpenPage(harness.browser, withScenario(ONE_CARD), { viewport: { width: 320, height: 800 } }, async (page) => {
    await openFit(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0);
    const wide = await page
      .locator('section.ts-fit *')
      .evaluateAll((elements) =>
        elements
          .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
          .map((element) => element.className || element.tagName),
      );
    assert.deepEqual(wide, []);
  });
});

for (const [language, heading, load] of [
  ['de', 'Was passt auf meine GPUs', 'Dieses Layout laden'],
  ['es', 'Qué cabe en mis GPU', 'Cargar esta disposición'],
]) {
  test(`?lang=${language} shows the section in its language`, async () => {
    await withOpenPage(harness.browser, withScenario(EIGHT_H100, `index.html?lang=${language}`), {}, async (page) => {
      const section = await openFit(page);
      assert.match(await section.locator('.ts-section-title').textContent(), new RegExp(heading));
      assert.equal((await section.locator('.ts-fit-load').first().textContent()).trim(), load);
      const method = await section.locator('[data-figure="fit-methods"] .ts-fit-method-name').first().textContent();
      assert.doesNotMatch(method, /^Full training/, 'the engine’s method label is translated');
    });
  });
}
