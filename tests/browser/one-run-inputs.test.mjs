// Issue 33, "One run, one answer": inputs that lost what the person set (items 7–12) and the
// learner's words and landings (13, 15, 16), at 360 and 1280 px. Each test failed before its fix.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildQuizUnits } from '../web/quiz-build.mjs';
import { artifactsDir, distDir, figure, openFit, repoRoot, startHarness, withOpenPage } from './harness.mjs';

const bank = JSON.parse(readFileSync(join(repoRoot, 'web', 'quiz', 'bank.json'), 'utf8'));
const { shortHash } = await import((await buildQuizUnits('one-run-browser')).bank);
const quizKey = `trainscope-quiz:${shortHash(bank.takeaways.map((takeaway) => takeaway.id).join(','))}`;

const PHONE = { width: 360, height: 740 };
const LAPTOP = { width: 1280, height: 800 };
const WIDTHS = [PHONE, LAPTOP];

let harness;
before(async () => {
  harness = await startHarness();
});
after(async () => {
  await harness?.close();
});

const withScenario = (scenario) => `${harness.url}#s=${encodeURIComponent(JSON.stringify(scenario))}`;
const scenarioOf = (page) => page.evaluate(() => window.trainscope.scenario());

/** Whether `locator`'s box lies inside the viewport. */
async function inView(page, locator) {
  const box = await locator.boundingBox();
  const height = await page.evaluate(() => window.innerHeight);
  return box !== null && box.y >= -1 && box.y + box.height <= height + 1;
}

/** A page whose learner has gone on to the deeper questions, so every question is on it (showme.test.mjs). */
async function withDeeperQuiz(viewport, body) {
  const context = await harness.browser.newContext({ viewport, reducedMotion: 'reduce' });
  await context.addInitScript((key) => {
    if (localStorage.getItem(key) === null) localStorage.setItem(key, '{"v":1,"m":"o","c":null,"d":1,"i":{}}');
  }, quizKey);
  return withOpenPage(harness.browser, harness.url, { viewport, context }, body);
}

async function openQuiz(page) {
  await page.locator('[data-ts-section="quiz"]').scrollIntoViewIfNeeded();
  await page.waitForSelector('[data-ts-quiz-ready]');
  const toggle = page.getByRole('button', { name: 'Show all questions at once' });
  if ((await toggle.getAttribute('aria-pressed')) === 'false') await toggle.click();
}

/** The fit section's model select ("Your goal"). */
const fitModel = (section) => section.locator('.ts-fit-group select').nth(1);

for (const viewport of WIDTHS) {
  const at = `at ${viewport.width} px`;

  test(`7: picking the model in What fits keeps Your GPUs (${at})`, async () => {
    await withOpenPage(
      harness.browser,
      withScenario({ hardware: { gpu: 'rtx-4090' }, parallel: { gpus: 2 } }),
      { viewport },
      async (page) => {
        const section = await openFit(page);
        await fitModel(section).selectOption('llama3-8b');
        await openFit(page);
        const scenario = await scenarioOf(page);
        assert.equal(scenario.model.preset, 'llama3-8b');
        assert.equal(scenario.hardware.gpu, 'rtx-4090', 'the GPU the person set stays');
        assert.equal(scenario.parallel.gpus, 2, 'and so does their count');
        assert.equal(await section.locator('.ts-fit-group select').first().inputValue(), 'rtx-4090');
        const verdict = await figure(page, 'fit-current').textContent();
        assert.doesNotMatch(verdict, /of 80(\.\d)? GB/, `the answer is not for an H100's memory: ${verdict}`);
        assert.match(verdict, /of 25\.8 GB/, `the answer is for the 4090's 24 GiB: ${verdict}`);
        await page.screenshot({ path: join(artifactsDir, `one-run-7-${viewport.width}.png`) });
      },
    );
  });

  test(`8: Load this layout sets only what the controls show (${at})`, async () => {
    const scenario = {
      model: { preset: 'llama3-70b' },
      hardware: { gpu: 'h100-sxm' },
      parallel: { gpus: 64 },
      training: { tokens: 1.4e12 },
    };
    await withOpenPage(harness.browser, withScenario(scenario), { viewport }, async (page) => {
      const section = await openFit(page);
      const offered = await page.evaluate(() =>
        [...document.querySelectorAll('[data-field="parallel.interleave"] option')].map((option) => Number(option.value)),
      );
      assert.ok(offered.length > 1, `the interleave control offers ${offered}`);
      const fit = await page.evaluate(() =>
        JSON.parse(window.trainscope.engine.module.fit(JSON.stringify({ scenario: window.trainscope.scenario(), max_layouts: 200 }))),
      );
      for (const layout of fit.layouts)
        assert.ok(offered.includes(layout.interleave), `a layout with ${layout.interleave} interleaved stages`);
      assert.ok(
        fit.layouts.some((layout) => layout.interleave > 1),
        'the search still interleaves',
      );
      // A card that interleaves says so.
      const cards = section.locator('[data-figure="fit-layouts"] li');
      const shown = await cards.evaluateAll((items) => items.map((item) => [Number(item.dataset.interleave), item.textContent]));
      for (const [interleave, text] of shown) {
        if (interleave > 1) assert.match(text, new RegExp(`${interleave} interleaved stages per GPU`));
        else assert.doesNotMatch(text, /interleaved/);
      }
      await cards.first().getByRole('button').click();
      const loaded = await scenarioOf(page);
      assert.equal(await page.locator('[data-field="parallel.interleave"] select').inputValue(), String(loaded.parallel.interleave));
    });
  });

  test(`9: a pasted config is the model in What fits (${at})`, async () => {
    const config = JSON.stringify({
      _name_or_path: 'mistralai/Mistral-7B-v0.1',
      architectures: ['MistralForCausalLM'],
      model_type: 'mistral',
      hidden_act: 'silu',
      hidden_size: 4096,
      intermediate_size: 14336,
      num_attention_heads: 32,
      num_hidden_layers: 32,
      num_key_value_heads: 8,
      vocab_size: 32000,
      tie_word_embeddings: false,
    });
    await withOpenPage(harness.browser, harness.url, { viewport }, async (page) => {
      const textarea = page.getByLabel('config.json');
      await textarea.scrollIntoViewIfNeeded();
      await textarea.fill(config);
      await page.locator('[data-action="use-config"]').click();
      await page.waitForFunction(() => window.trainscope.scenario().model.name === 'Mistral-7B-v0.1');
      const section = await openFit(page);
      const select = fitModel(section);
      assert.equal(await select.inputValue(), '__config');
      assert.equal(await select.evaluate((element) => element.selectedOptions[0].textContent), 'Your model: Mistral-7B-v0.1');
      await section.screenshot({ path: join(artifactsDir, `one-run-9-${viewport.width}.png`) });
    });
  });

  test(`10: the cheapest changes come by what they cost, changes of goal apart (${at})`, async () => {
    const scenario = {
      model: { preset: 'llama3-8b' },
      hardware: { gpu: 'rtx-4090' },
      parallel: { gpus: 1 },
      training: { method: 'qlora', sequence: 8192 },
    };
    await withOpenPage(harness.browser, withScenario(scenario), { viewport }, async (page) => {
      const section = await openFit(page);
      const cards = section.locator('[data-figure="fit-changes"] > li');
      const costs = await cards.evaluateAll((items) => items.map((item) => item.dataset.costs));
      const order = ['nothing', 'time', 'money'];
      assert.ok(costs.length >= 2, `changes: ${costs}`);
      assert.deepEqual(
        costs,
        [...costs].sort((a, b) => order.indexOf(a) - order.indexOf(b)),
        `nothing, time, money: ${costs}`,
      );
      const kinds = await cards.evaluateAll((items) => items.map((item) => item.dataset.change));
      assert.ok(kinds.indexOf('recompute') < kinds.indexOf('larger_gpu'), `checkpointing before a larger GPU: ${kinds}`);
      assert.notEqual(costs[0], 'money');
      const goal = await section
        .locator('[data-figure="fit-goal-changes"] > li')
        .evaluateAll((items) => items.map((item) => item.dataset.change));
      assert.ok(goal.length > 0 && goal.every((kind) => kind === 'method' || kind === 'sequence'), `changes of goal apart: ${goal}`);
      assert.match(await figure(page, 'fit-changes-order').textContent(), /nothing first, then time, then money/);
      await section.locator('.ts-fit-changes').screenshot({ path: join(artifactsDir, `one-run-10-${viewport.width}.png`) });
    });
  });

  test(`16: the 70B story lands visibly when the scenario does not change (${at})`, async () => {
    await withOpenPage(harness.browser, harness.url, { viewport, reducedMotion: 'reduce', deeperClosed: true }, async (page) => {
      const button = page.getByRole('button', { name: '70B: run vs train' });
      // The default scenario is the story's: scroll so the part's heading is out of view, the button in it.
      await button.evaluate((element) => element.scrollIntoView({ block: 'start' }));
      const part = page.locator('.ts-section[data-ts-section="run-vs-train"]');
      const before = await part.evaluate((element) => element.getBoundingClientRect().top);
      assert.ok(before < -20, `the part's top starts ${before} px above the viewport`);
      for (let click = 0; click < 2; click += 1) {
        await button.click();
        await page.waitForFunction(
          () => document.querySelector('.ts-section[data-ts-section="run-vs-train"]')?.classList.contains('ts-landed'),
          null,
          {
            timeout: 5000,
          },
        );
        const where = await part.evaluate((element) => element.getBoundingClientRect().top);
        assert.ok(where >= -2 && where < viewport.height / 2, `click ${click + 1}: the part's top is ${where} px into the viewport`);
        await button.evaluate((element) => element.scrollIntoView({ block: 'start' }));
      }
      assert.equal((await scenarioOf(page)).model.preset, 'llama3-70b');
    });
  });

  test(`11: the Global batch slider starts at the fewest meaningful value (${at})`, async () => {
    await withOpenPage(
      harness.browser,
      withScenario({ model: { preset: 'llama3-8b' }, parallel: { gpus: 8 } }),
      { viewport },
      async (page) => {
        const control = page.locator('.ts-section[data-ts-section="activations"] [data-field="training.global_batch"]');
        await control.scrollIntoViewIfNeeded();
        const range = control.locator('input[type=range]');
        const fewest = (
          await page.evaluate(() => JSON.parse(window.trainscope.engine.module.estimate(JSON.stringify(window.trainscope.overrides()))))
        ).training.fewest_global_batch;
        assert.equal(fewest, 8);
        // Every position changes the step: position 0 is "the fewest", each next one a doubling of it.
        const seen = [];
        const positions = Number(await range.getAttribute('max'));
        for (let position = 0; position <= Math.min(positions, 3); position += 1) {
          await range.fill(String(position));
          seen.push(await page.evaluate(() => window.trainscope.scenario().training.global_batch));
        }
        assert.deepEqual(seen.slice(0, 3), [0, 16, 32], `the slider's first values: ${seen}`);
        const steps = [];
        for (const value of seen)
          steps.push(
            await page.evaluate(
              (globalBatch) =>
                JSON.parse(
                  window.trainscope.engine.module.estimate(
                    JSON.stringify({ ...window.trainscope.overrides(), training: { global_batch: globalBatch } }),
                  ),
                ).communication.micro_batches,
              value,
            ),
          );
        assert.equal(new Set(steps).size, steps.length, `each position is another step: ${steps} micro-batches`);
      },
    );
  });

  test(`12: sequence length and micro-batch sit in What fits, and its answer stays in view (${at})`, async () => {
    const scenario = {
      model: { preset: 'llama3-8b' },
      hardware: { gpu: 'rtx-4090' },
      parallel: { gpus: 1 },
      training: { method: 'qlora', sequence: 2048 },
    };
    await withOpenPage(harness.browser, withScenario(scenario), { viewport }, async (page) => {
      const section = await openFit(page);
      for (const [path, value] of [
        ['training.sequence', '8192'],
        ['training.micro_batch', '2'],
        ['hardware.gpu', null],
      ]) {
        const control = section.locator(`.ts-fit-inputs [data-field="${path}"]`).first();
        assert.equal(await control.count(), 1, `${path} is among What fits' inputs`);
        // As focus brings a field into view: the nearest edge (which heeds the field's scroll margin).
        await control.evaluate((element) => element.scrollIntoView({ block: 'nearest' }));
        if (value === null) await control.locator('select').selectOption('l40s');
        else await control.locator('input.ts-number').fill(value);
        // The answer for the new scenario, without scrolling: where the learner is.
        await page.waitForFunction(() => {
          const section = document.querySelector('section.ts-fit');
          return (
            section?.getAttribute('aria-busy') === 'false' &&
            section.getAttribute('data-fit-key') === JSON.stringify(window.trainscope.scenario())
          );
        });
        assert.ok(await inView(page, figure(page, 'fit-current')), `after ${path}: the answer is in view`);
        assert.ok(await inView(page, control), `after ${path}: and so is the input`);
        const uncovered = await control.evaluate((element) => {
          const field = element.querySelector('input.ts-number, select');
          const box = field.getBoundingClientRect();
          const top = element.getRootNode().elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          return top === field || field.contains(top);
        });
        assert.ok(uncovered, `after ${path}: the answer held at the foot of the screen does not cover the input`);
      }
      assert.equal((await scenarioOf(page)).training.sequence, 8192);
      await page.screenshot({ path: join(artifactsDir, `one-run-12-${viewport.width}.png`) });
    });
  });

  test(`13: the quiz reads the question's phrasing, one hint at a time, its example in the question's unit (${at})`, async () => {
    await withOpenPage(harness.browser, harness.url, { viewport, reducedMotion: 'reduce' }, async (page) => {
      await openQuiz(page);
      const item = page.locator('.ts-quiz-item[data-item-id="one-gpu-years"]');
      await item.scrollIntoViewIfNeeded();
      const input = item.locator('.ts-quiz-text-input');
      const readAs = item.locator('.ts-quiz-read-as');
      const error = item.locator('.ts-quiz-input-error');
      await input.fill('thousands of years');
      await page.waitForFunction((element) => element.textContent !== '', await readAs.elementHandle());
      assert.match(await readAs.textContent(), /^Read as 3,160 years/);
      await input.fill('lots');
      await page.waitForFunction((element) => /not a number/.test(element.textContent), await readAs.elementHandle());
      const live = await readAs.textContent();
      assert.match(live, /years/, `the example is in years: ${live}`);
      assert.doesNotMatch(live, /TB/);
      await item.getByRole('button', { name: 'Check answer' }).click();
      assert.equal(await error.isVisible(), true);
      const hints = await item
        .locator('.ts-quiz-read-as, .ts-quiz-input-error')
        .evaluateAll((elements) =>
          elements.filter((element) => !element.hidden && element.textContent.trim() !== '').map((element) => element.textContent),
        );
      assert.equal(hints.length, 1, `one hint at a time: ${hints.join(' | ')}`);
      await input.fill('thousands of years');
      await page.waitForFunction((element) => /3,160/.test(element.textContent), await readAs.elementHandle());
      assert.equal(await error.isVisible(), false, "typing again replaces the check's message");
    });
  });

  test(`15: show-me on the step question loads one GPU without checkpointing and marks the chart's peak (${at})`, async () => {
    await withDeeperQuiz(viewport, async (page) => {
      await openQuiz(page);
      const item = page.locator('.ts-quiz-item[data-item-id="step-peak-when"]');
      await item.scrollIntoViewIfNeeded();
      await item.locator('.ts-quiz-choice-input').first().check();
      await item.getByRole('button', { name: 'Check answer' }).click();
      await item.getByRole('button', { name: 'Show me in the simulation' }).click();
      await page.waitForFunction(() => document.querySelector('.ts-showme-target') !== null);
      const scenario = await scenarioOf(page);
      assert.equal(scenario.parallel.gpus, 1, 'one GPU, as the question says');
      assert.equal(scenario.training.recompute, 'none', 'without checkpointing');
      const target = page.locator('.ts-showme-target');
      assert.equal(await target.getAttribute('data-figure'), 'step-peak');
      assert.equal(await target.evaluate((element) => element.closest('.ts-step-chart') !== null), true, 'the peak on the chart');
      await page.waitForTimeout(400);
      assert.ok(await inView(page, target), 'the peak is in view');
      assert.ok(await inView(page, page.locator('.ts-step-plot').first()), 'and so is the chart under it');
      await page.screenshot({ path: join(artifactsDir, `one-run-15-${viewport.width}.png`) });
    });
  });
}

test('17: docs/embedding.md gives the sizes the element and the iframe load, measured with gzip -9 (within 5%)', () => {
  const doc = readFileSync(join(repoRoot, 'docs', 'embedding.md'), 'utf8');
  const kilobytes = (...files) =>
    files.reduce((sum, file) => sum + gzipSync(readFileSync(join(distDir, file)), { level: 9 }).length, 0) / 1000;
  const cases = [
    [/`trainscope-widget\.js` \((\d+) KB gzip\)/, ['embed/trainscope-widget.js']],
    [/`trainscope-engine\.js` \((\d+) KB gzip\)/, ['embed/trainscope-engine.js']],
    [/iframe page loads .*?\((\d+) KB gzip\)/s, ['iframe/index.html', 'iframe/trainscope-iframe.js', 'iframe/trainscope.css']],
  ];
  for (const [pattern, files] of cases) {
    const match = doc.match(pattern);
    assert.ok(match, `docs/embedding.md states ${files.join(' + ')}'s size`);
    const measured = kilobytes(...files);
    const documented = Number(match[1]);
    assert.ok(
      Math.abs(documented - measured) <= 0.05 * measured,
      `${files.join(' + ')}: documented ${documented} KB, measured ${measured.toFixed(1)} KB gzip -9`,
    );
  }
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const paragraph = readme.slice(readme.indexOf('**In German or Spanish:**'), readme.indexOf('## Measured'));
  assert.match(paragraph, /connect-src 'self'/, 'the README says the strict policy needs connect-src for the language pack');
});
