// Issue 33, "One run, one answer" (items 1–6 and 14): where the page shows two figures for one run,
// they agree or each says which it is, at 360 and 1280 px. Every expected figure is the engine's,
// asked independently in the same page (estimate, fit, fineTuningMethods); screenshots of each
// place go to test-artifacts/one-run-*.png.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { artifactsDir, engineEstimate, figure, openDeeperParts, openFit, startHarness, withOpenPage } from './harness.mjs';

/** Llama 3 8B with QLoRA on one RTX 4090 (24 GB) at 2,048 tokens: the practitioner. */
const QLORA = {
  model: { preset: 'llama3-8b' },
  hardware: { gpu: 'rtx-4090' },
  parallel: { gpus: 1 },
  training: { sequence: 2048, method: 'qlora' },
};
/** Llama 3 70B on 64 H100s, 1.4T tokens: the lead. */
const CLUSTER = { model: { preset: 'llama3-70b' }, parallel: { gpus: 64 }, training: { tokens: 1.4e12 } };
/** Llama 3 70B on one H100 with weights and optimizer offloaded (ZeRO-3): the offload card. */
const OFFLOAD = { model: { preset: 'llama3-70b' }, parallel: { gpus: 1, zero_stage: 3 }, training: { offload: 'parameters' } };
const WIDTHS = [360, 1280];

let harness;
before(async () => {
  harness = await startHarness();
});
after(async () => {
  await harness?.close();
});

const withScenario = (scenario, query = '') => `${harness.url}${query}#s=${encodeURIComponent(JSON.stringify(scenario))}`;
const viewport = (width) => ({ viewport: { width, height: 900 } });

/** Brings a place into view, waits for its part to catch up (parts away from the screen update when near), and returns it. */
async function inView(page, selector) {
  await page.evaluate((s) => document.querySelector(s)?.scrollIntoView({ block: 'center' }), selector);
  await page.waitForTimeout(500);
  return page.locator(selector).first();
}

async function shoot(page, selector, name) {
  const target = await inView(page, selector);
  await target.screenshot({ path: join(artifactsDir, `one-run-${name}.png`) });
}

/** The engine's own fit and methods for the page's scenario, asked in the page. */
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

const valueOf = async (page, name) => Number(await (await inView(page, `[data-figure="${name}"]`)).getAttribute('data-value'));
const format = (page, value, kind) => page.evaluate(([v, k]) => window.trainscope.engine.module.formatQuantity(v, k, 0), [value, kind]);

for (const width of WIDTHS) {
  test(`item 1 at ${width} px: the card, the QLoRA column and the time section give one predicted time, each labelled`, async () => {
    await withOpenPage(harness.browser, withScenario(QLORA), viewport(width), async (page) => {
      await openFit(page);
      const { fit, methods } = await engineFit(page);
      const best = fit.layouts[0];
      const qlora = methods.find((method) => method.method === 'qlora');
      assert.equal(qlora.run_seconds, best.run_seconds, 'the QLoRA column and layout #1 are one run, one time');
      const card = page.locator('[data-figure="fit-layouts"] .ts-fit-card').first();
      assert.equal(Number(await card.getAttribute('data-run-seconds')), best.run_seconds);
      const percent = await format(page, best.predicted_mfu, 'percent');
      assert.match(
        await card.textContent(),
        new RegExp(`predicted ${percent.replace('%', '\\s?%')} utilisation`),
        'the card names its utilisation',
      );
      const column = page.locator('[data-figure="fit-methods"] [data-method="qlora"]');
      assert.equal(Number(await column.locator('[data-figure="fit-method-time"]').getAttribute('data-value')), best.run_seconds);
      assert.match(await column.textContent(), /predicted/);
      await shoot(page, '[data-figure="fit-layouts"]', `item1-card-${width}`);
      // The time section: the time at the utilisation set, and beside it the predicted one, named.
      // The lesson's time part shows the first; the deeper time part, opened, the utilisations.
      await openDeeperParts(page);
      const estimate = await engineEstimate(page);
      assert.equal(await valueOf(page, 'predicted-seconds'), estimate.communication.run_seconds);
      assert.equal(estimate.communication.run_seconds, best.run_seconds);
      assert.equal(await valueOf(page, 'seconds'), estimate.compute.seconds);
      assert.notEqual(estimate.compute.seconds, best.run_seconds, 'two utilisations, two times: the page names both');
      // innerText: what is on screen, without a term's closed definition.
      const lessonFacts = await (await inView(page, '[data-ts-section="compute-time"] .ts-facts')).innerText();
      const used = await format(page, estimate.scenario.hardware.utilization, 'percent');
      assert.ok(lessonFacts.replace(/\s+/g, ' ').includes(`GPU-hours at ${used} utilisation`), `the GPU-hours name the equation's utilisation: ${lessonFacts}`);
      assert.doesNotMatch(lessonFacts, /predicted/, 'the lesson part keeps to the utilisation its equation shows');
      const deeperFacts = await (await inView(page, '[data-ts-section="time"] .ts-facts')).textContent();
      assert.match(deeperFacts, /predicted for this layout/);
      await shoot(page, '[data-ts-section="compute-time"] .ts-facts', `item1-time-${width}`);
      await shoot(page, '[data-ts-section="time"] .ts-facts', `item1-time-deeper-${width}`);
    });
  });

  test(`item 1 at ${width} px: "Load this layout" keeps the card's time on screen as the predicted time`, async () => {
    await withOpenPage(harness.browser, withScenario(CLUSTER), viewport(width), async (page) => {
      await openFit(page);
      const card = page.locator('[data-figure="fit-layouts"] .ts-fit-card').first();
      const cardSeconds = Number(await card.getAttribute('data-run-seconds'));
      await card.locator('.ts-fit-load').click();
      await openDeeperParts(page);
      await page.waitForFunction((seconds) => {
        const shown = document.querySelector('[data-figure="predicted-seconds"]');
        shown?.scrollIntoView({ block: 'center' });
        return Number(shown?.dataset.value) === seconds;
      }, cardSeconds);
      const estimate = await engineEstimate(page);
      assert.equal(estimate.communication.run_seconds, cardSeconds);
      await shoot(page, '[data-ts-section="time"] .ts-facts', `item1-loaded-${width}`);
    });
  });

  test(`items 2 and 4 at ${width} px: the step's two lengths are named; QLoRA's equation is 4 × frozen + 6 × adapters`, async () => {
    await withOpenPage(harness.browser, withScenario(QLORA), viewport(width), async (page) => {
      const equation = await inView(page, '[data-ts-section="compute-time"] [data-figure="flops-equation"]');
      const estimate = await engineEstimate(page);
      const text = (await equation.textContent()).replace(/\s+/g, ' ');
      assert.doesNotMatch(text, /^\s*6 ×/, `not 6 × for a frozen base: ${text}`);
      assert.match(text, /4 ×.*frozen.*6 ×.*adapter/);
      // The equation's own figures multiply out to its result (the 6 × 8.03e9 × 15.84e6 did not).
      const terms = await equation
        .locator('.ts-eq-term .ts-eq-value[data-value]')
        .evaluateAll((values) => values.map((value) => Number(value.dataset.value)));
      const [frozen, adapters] = terms;
      const sum = (4 * frozen + 6 * adapters) * estimate.scenario.training.tokens;
      assert.ok(Math.abs(sum / estimate.compute.flops - 1) < 1e-9, `${sum} against ${estimate.compute.flops}`);
      assert.match(await figure(page, 'flops-sentence').textContent(), /QLoRA costs about 4/);
      await shoot(page, '[data-ts-section="compute-time"] .ts-equations', `item4-${width}`);
      // The deeper time part's "Why 4 × frozen + 6 × adapter parameters?" answers that question.
      await openDeeperParts(page);
      const why = page.locator('[data-ts-section="time"] details.ts-why').first();
      await why.evaluate((details) => { details.open = true; });
      assert.equal((await why.locator('summary').textContent()).trim(), estimate.compute.flops_rule.why);
      const answer = (await why.locator('.ts-why-body').textContent()).replace(/\s+/g, ' ');
      assert.match(answer, /a frozen parameter costs 4 FLOPs per token/);
      assert.match(answer, /\(4 · N_frozen \+ 6 · N_adapters\) · D/);
      assert.doesNotMatch(answer, /6 · N · D/, 'no formula for full training under a fine-tuning question');
      const title = await (await inView(page, '[data-figure="step-communication"] .ts-comm-title')).textContent();
      const predictedStep = await format(page, estimate.communication.step_seconds, 'duration');
      const chartStep = await format(page, estimate.step.seconds, 'duration');
      const yours = await format(page, estimate.scenario.hardware.utilization, 'percent');
      assert.ok(title.includes(predictedStep), `the predicted step named: ${title}`);
      assert.match(title, /predicts/);
      assert.ok(title.includes(`${yours} utilisation you set`), `the chart's utilisation named: ${title}`);
      // The chart's own length stays where the chart writes it, once.
      assert.ok((await page.locator('.ts-step-held').first().textContent()).includes(chartStep));
      await shoot(page, '[data-figure="step-communication"]', `item2-${width}`);
    });
  });

  test(`item 5 at ${width} px: QLoRA's cards: the run as held, a ratio of at least 1, both bytes per parameter explained`, async () => {
    await withOpenPage(harness.browser, withScenario(QLORA), viewport(width), async (page) => {
      const estimate = await engineEstimate(page);
      const headline = await inView(page, '[data-ts-section="run-vs-train"] .ts-headline');
      assert.equal(await valueOf(page, 'inference-total'), estimate.run_as_trained.total);
      assert.equal(await valueOf(page, 'ratio'), estimate.run_as_trained.ratio_training_to_run);
      assert.ok(estimate.run_as_trained.ratio_training_to_run >= 1);
      const words = (await headline.textContent()).replace(/\s+/g, ' ');
      assert.doesNotMatch(words, /0\.\d+× more/);
      const sentence = (await (await inView(page, '[data-ts-section="training-extras"] .ts-fine-tuning')).textContent()).replace(
        /\s+/g,
        ' ',
      );
      assert.doesNotMatch(sentence, /a run saves/);
      assert.match(sentence, /16-bit/);
      assert.equal(await valueOf(page, 'base-average-bytes-per-param'), estimate.run_as_trained.bytes_per_param);
      assert.ok(sentence.includes(await format(page, estimate.training.fine_tuning.checkpoint_bytes, 'bytes')));
      await shoot(page, '[data-ts-section="run-vs-train"] .ts-headline', `item5-headline-${width}`);
      await shoot(page, '[data-ts-section="training-extras"] .ts-fine-tuning', `item5-sentence-${width}`);
    });
  });

  test(`item 6 at ${width} px: offload: the bars hold what the note says stayed, the fit's peak, and the PCIe time is in the step`, async () => {
    await withOpenPage(harness.browser, withScenario(OFFLOAD), viewport(width), async (page) => {
      const estimate = await engineEstimate(page);
      const { fit } = await engineFit(page);
      assert.ok(estimate.training.offload.cpu_per_gpu.gradients > 0, 'the gradients left the GPU');
      assert.equal(await valueOf(page, 'training-total'), fit.current.peak_bytes, 'the run-vs-train card is the fit card’s per-GPU peak');
      const barLabel = await (
        await inView(
          page,
          '[data-ts-section="training-extras"] .ts-bar-train, [data-ts-section="training-extras"] [aria-label*="Training one copy"]',
        )
      ).getAttribute('aria-label');
      assert.doesNotMatch(barLabel ?? '', /gradients [1-9]/i, `no gradients drawn on the GPU: ${barLabel}`);
      const pcie = estimate.communication.terms.find((term) => term.id === 'offload_transfers');
      assert.equal(await valueOf(page, 'offload-pcie-seconds'), pcie.exposed_seconds);
      assert.match(await figure(page, 'offload').textContent(), /predicted step time includes/);
      await shoot(page, '[data-ts-section="training-extras"]', `item6-${width}`);
    });
  });

  test(`item 14 at ${width} px: one GPU is "1 GPU" in every place, in English, German and Spanish`, async () => {
    for (const [query, wrong] of [
      ['', /(^|[^\d.,])1 GPUs/],
      ['?lang=de', /(^|[^\d.,])1 GPUs/],
      ['?lang=es', /(^|[^\d.,])1 GPUs/],
    ]) {
      await withOpenPage(harness.browser, withScenario(QLORA, query), viewport(width), async (page) => {
        const total = await inView(page, '[data-figure="layout-gpus"]');
        assert.equal(await total.getAttribute('data-value'), '1');
        await page.waitForTimeout(300);
        for (const selector of ['[data-ts-section]']) {
          const texts = await page
            .locator(selector)
            .evaluateAll((sections) => sections.map((section) => section.textContent.replace(/\s+/g, ' ')));
          for (const text of texts) assert.doesNotMatch(text, wrong, `${query || 'en'}: ${text.match(/.{0,60}1 GPUs.{0,40}/)?.[0]}`);
        }
        const labels = await page
          .locator('[aria-label]')
          .evaluateAll((elements) => elements.map((element) => element.getAttribute('aria-label')));
        for (const label of labels) assert.doesNotMatch(label, wrong, label);
        await shoot(page, '[data-figure="layout"]', `item14${query.replace(/\W/g, '-')}-${width}`);
      });
    }
  });
}

test('item 3: the Llama 3 405B story loads the published run, as the sharding section’s button does: ZeRO-1, interleaved, Meta’s 41%', async () => {
  await withOpenPage(harness.browser, harness.url, viewport(1280), async (page) => {
    await page.locator('[data-story="llama3-405b"]').click();
    await page.waitForFunction(() => window.trainscope.scenario().model.preset === 'llama3-405b');
    const story = await engineEstimate(page);
    assert.equal(story.scenario.parallel.zero_stage, 1);
    assert.equal(story.scenario.parallel.interleave, 8);
    assert.ok(Math.abs(story.communication.predicted_mfu - 0.41) <= 0.015, `predicted ${story.communication.predicted_mfu}`);
    await openDeeperParts(page);
    await page.waitForFunction(
      (value) => Number(document.querySelector('[data-figure="predicted-mfu"]')?.dataset.value) === value,
      story.communication.predicted_mfu,
    );
    await shoot(page, '[data-ts-section="compute-time"]', 'item3-story-1280');
    const button = await inView(page, '[data-run="llama3-405b/pretraining-8k"]');
    await button.click();
    await page.waitForTimeout(400);
    const published = await engineEstimate(page);
    assert.equal(published.communication.predicted_mfu, story.communication.predicted_mfu, 'both buttons load one run');
    assert.equal(published.compute.seconds, story.compute.seconds);
  });
});
