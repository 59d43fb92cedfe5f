// "Show me in the simulation" on the whole page: every item of the default bank lands on the
// section and figure it names, the figure is marked and in view and (for numeric items) shows the
// engine's answer for the instance asked, and "Back to question N" returns to the question.
// Shared links: a pasted config's name travels in the link; a bad link's limits read for people.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { artifactsDir, repoRoot, startHarness, withOpenPage } from './harness.mjs';

const bank = JSON.parse(readFileSync(join(repoRoot, 'web', 'quiz', 'bank.json'), 'utf8'));

let harness;
before(async () => { harness = await startHarness(); });
after(async () => { await harness?.close(); });

function withPage(options, body, address = harness.url) {
  return withOpenPage(harness.browser, address, { reducedMotion: 'reduce', ...options }, body);
}

/** The quiz is prepared lazily: scroll to it, show every question at once. */
async function openQuiz(page) {
  await page.locator('[data-ts-section="quiz"]').scrollIntoViewIfNeeded();
  await page.waitForSelector('[data-ts-quiz-ready]');
  const toggle = page.getByRole('button', { name: 'Show all questions at once' });
  if (await toggle.getAttribute('aria-pressed') === 'false') await toggle.click();
}

function quizItem(page, id) {
  return page.locator(`.ts-quiz-item[data-item-id="${id}"]`);
}

/** Shows the item's solution (so its "show me" appears) and follows "show me". */
async function followShowMe(page, id) {
  const element = quizItem(page, id);
  await element.scrollIntoViewIfNeeded();
  const reveal = element.locator('[data-action="reveal"]');
  if (await reveal.count() > 0) await reveal.click();
  await element.getByRole('button', { name: 'Show me in the simulation' }).click();
}

/**
 * Where a bank's section lands (docs/page.md, "The lesson path"): on the lesson part that draws the
 * figure, else in the deeper part that holds the rest of the section.
 */
const LANDS_IN = {
  memory: ['run-vs-train', 'training-extras', 'precision'],
  activations: ['sharding-checkpointing', 'activations'],
  sharding: ['sharding-checkpointing', 'sharding'],
  time: ['compute-time', 'time'],
  step: ['step'],
  fit: ['fit'],
};

/** What the page shows after "show me": the marked figure, its section, whether it is in view. */
function landing(page) {
  return page.evaluate(() => {
    const marked = [...document.querySelectorAll('.ts-showme-target')];
    const figure = marked[0];
    if (!figure) return { count: 0 };
    const rect = figure.getBoundingClientRect();
    const back = document.querySelector('.ts-showme-back button');
    const backRect = back?.getBoundingClientRect();
    return {
      count: marked.length,
      figure: figure.dataset.figure,
      section: figure.closest('[data-ts-section]')?.dataset.tsSection,
      value: figure.dataset.value === undefined ? null : Number(figure.dataset.value),
      text: figure.textContent.trim(),
      box: `${Math.round(rect.left)},${Math.round(rect.top)} to ${Math.round(rect.right)},${Math.round(rect.bottom)} in ${window.innerWidth}×${window.innerHeight}`,
      inView: rect.height > 0 && rect.top >= 0 && rect.bottom <= window.innerHeight && rect.left >= 0 && rect.right <= window.innerWidth,
      focused: document.activeElement === figure,
      back: back?.textContent ?? null,
      backInView: backRect ? backRect.top >= 0 && backRect.bottom <= window.innerHeight : false,
    };
  });
}

/** The engine's instance of the item for the seed the quiz shows. */
function engineInstance(page, item, seed) {
  return page.evaluate(([itemText, itemSeed]) => JSON.parse(window.trainscope.engine.module.quizInstance(itemText, itemSeed)),
    [JSON.stringify(item), seed]);
}

for (const viewport of [{ width: 1280, height: 900 }, { width: 320, height: 640 }]) test(`every item’s "show me" lands on its section and figure, marked, in view, with the engine’s answer (${viewport.width} px)`, async () => {
  await withPage({ viewport }, async (page) => {
    await openQuiz(page);
    for (const [index, item] of bank.items.entries()) {
      const seed = Number(await quizItem(page, item.id).getAttribute('data-seed'));
      await followShowMe(page, item.id);
      await page.waitForFunction(() => document.querySelector('.ts-showme-target') !== null);
      const shown = await landing(page);
      const label = `question ${index + 1} (${item.id})`;
      assert.equal(shown.count, 1, `${label}: one figure is marked`);
      assert.ok(LANDS_IN[item.show.section].includes(shown.section), `${label}: lands in its section (${item.show.section}: ${shown.section})`);
      assert.equal(shown.figure, item.show.figure, `${label}: lands on its figure`);
      assert.equal(shown.inView, true, `${label}: the figure is in view (${shown.box}: “${shown.text}”)`);
      assert.equal(shown.focused, true, `${label}: focus moves to the figure`);
      assert.equal(shown.back, `Back to question ${index + 1}`, `${label}: offers the way back`);
      assert.equal(shown.backInView, true, `${label}: the way back is in view`);
      if (item.kind === 'numeric' || item.kind === 'estimate') {
        const instance = await engineInstance(page, item, seed);
        assert.ok(Number.isFinite(shown.value), `${label}: the figure carries its engine value`);
        assert.ok(Math.abs(shown.value - instance.expected) <= 1e-9 * Math.abs(instance.expected),
          `${label}: the figure shows ${shown.value}, the engine's answer is ${instance.expected}`);
      }
      await page.getByRole('button', { name: `Back to question ${index + 1}` }).click();
      // Back leaves the show-me history entry first (issue 24, item 12), then moves focus to the question.
      await page.waitForFunction((id) => document.activeElement === document.querySelector(`.ts-quiz-item[data-item-id="${id}"] .ts-quiz-legend`), item.id);
      const back = await page.evaluate((id) => {
        const legend = document.querySelector(`.ts-quiz-item[data-item-id="${id}"] .ts-quiz-legend`);
        const rect = legend.getBoundingClientRect();
        return {
          focused: document.activeElement === legend,
          inView: rect.top >= -1 && rect.bottom <= window.innerHeight,
          marks: document.querySelectorAll('.ts-showme-target, .ts-showme-back').length,
        };
      }, item.id);
      assert.deepEqual(back, { focused: true, inView: true, marks: 0 }, `${label}: back at the question, the mark gone`);
    }
  });
});

test('question 10 lands on the sharding section’s one figure of model states per GPU: 1.88 GB', async () => {
  for (const [width, height] of [[320, 640], [1280, 900]]) {
    for (const colorScheme of ['light', 'dark']) {
      await withPage({ viewport: { width, height }, colorScheme }, async (page) => {
        await openQuiz(page);
        await followShowMe(page, 'zero3-per-gpu');
        await page.waitForFunction(() => document.querySelector('.ts-showme-target') !== null);
        const shown = await landing(page);
        assert.equal(shown.section, 'sharding-checkpointing', 'the lesson\'s sharding part draws it');
        assert.equal(shown.figure, 'model-states-per-gpu');
        assert.equal(shown.text, '1.88 GB');
        assert.equal(shown.inView, true, `in view at ${width} px`);
        assert.equal(shown.backInView, true, `the way back in view at ${width} px`);
        const estimate = await page.evaluate(() => window.trainscope.estimate());
        assert.equal(shown.value, estimate.training.per_gpu.model_states);
        await page.screenshot({ path: join(artifactsDir, `showme-q10-${width}-${colorScheme}.png`) });
      });
    }
  }
});

test('questions 13 and 16 land on the time section, at 320 px too', async () => {
  await withPage({ viewport: { width: 320, height: 640 } }, async (page) => {
    await openQuiz(page);
    for (const id of ['training-flops-6nd', 'cluster-days']) {
      const item = bank.items.find((entry) => entry.id === id);
      await followShowMe(page, id);
      await page.waitForFunction(() => document.querySelector('.ts-showme-target') !== null);
      const shown = await landing(page);
      assert.equal(shown.section, 'compute-time', `${id}: the lesson's time part draws it`);
      assert.equal(shown.figure, item.show.figure, id);
      assert.equal(shown.inView, true, `${id}: in view at 320 px`);
      await page.screenshot({ path: join(artifactsDir, `showme-${id}-320.png`) });
      await page.getByRole('button', { name: /^Back to question/ }).click();
    }
  });
});

test('on a phone (360 px), "show me" lands on the figure after the page settles, with its way back in view (issue 24, item 11)', async () => {
  // Smooth scrolling, as a learner has it: sections above the figure finish their build during the scroll.
  for (const id of ['zero3-per-gpu', 'train-bytes-per-parameter', 'cluster-days']) {
    await withOpenPage(harness.browser, harness.url, { viewport: { width: 360, height: 640 } }, async (page) => {
      await openQuiz(page);
      await followShowMe(page, id);
      await page.waitForFunction(() => document.querySelector('.ts-showme-target') !== null);
      // Settled: the scroll is over and nothing moves for half a second.
      await page.waitForFunction(() => {
        const top = Math.round(document.querySelector('.ts-showme-target').getBoundingClientRect().top);
        const same = window.__lastTop === top && window.__lastY === window.scrollY;
        window.__lastTop = top;
        window.__lastY = window.scrollY;
        return same;
      }, null, { polling: 500, timeout: 10000 });
      const shown = await landing(page);
      assert.equal(shown.inView, true, `${id}: the figure is in view once settled (${shown.box})`);
      assert.equal(shown.backInView, true, `${id}: its "Back to question" is in view once settled`);
      await page.screenshot({ path: join(artifactsDir, `showme-settled-${id}-360.png`) });
    });
  }
});

test('"Back to question" brings back the learner’s own scenario, and so does the browser’s Back (issue 24, item 12)', async () => {
  await withPage({ viewport: { width: 1280, height: 900 } }, async (page) => {
    const learner = { model: { preset: 'llama3-405b' }, parallel: { gpus: 512 } };
    await page.evaluate((scenario) => window.trainscope.setScenario(scenario), learner);
    const own = await page.evaluate(() => window.trainscope.overrides());
    await page.waitForFunction(() => window.location.hash.startsWith('#s='));
    const ownAddress = await page.evaluate(() => window.location.href);
    await openQuiz(page);
    await followShowMe(page, 'zero3-per-gpu');
    await page.waitForFunction(() => document.querySelector('.ts-showme-target') !== null);
    assert.notDeepEqual(await page.evaluate(() => window.trainscope.overrides()), own, 'the question’s scenario is on screen');
    await page.getByRole('button', { name: /^Back to question/ }).click();
    assert.deepEqual(await page.evaluate(() => window.trainscope.overrides()), own, '"Back to question" brings the learner’s scenario back');
    await page.waitForFunction((address) => window.location.href === address, ownAddress);

    await followShowMe(page, 'zero3-per-gpu');
    await page.waitForFunction(() => document.querySelector('.ts-showme-target') !== null);
    await page.waitForFunction((address) => window.location.href !== address, ownAddress);
    await page.goBack();
    await page.waitForFunction((address) => window.location.href === address, ownAddress);
    await page.waitForFunction(() => document.querySelector('.ts-showme-target') === null);
    assert.deepEqual(await page.evaluate(() => window.trainscope.overrides()), own, 'the browser’s Back brings it back too, on the same page');
  });
});

const NAMED_CONFIG = JSON.stringify({
  _name_or_path: 'mistralai/Mistral-7B-v0.1', architectures: ['MistralForCausalLM'], model_type: 'mistral',
  hidden_act: 'silu', hidden_size: 4096, intermediate_size: 14336, num_attention_heads: 32, num_hidden_layers: 32,
  num_key_value_heads: 8, vocab_size: 32000, tie_word_embeddings: false,
});

test('a shared link for a pasted config names the model', async () => {
  let link = '';
  await withPage({}, async (page) => {
    const textarea = page.getByLabel('config.json');
    await textarea.scrollIntoViewIfNeeded();
    await textarea.fill(NAMED_CONFIG);
    await page.locator('[data-action="use-config"]').click();
    await page.waitForFunction(() => window.location.hash.includes('Mistral'));
    link = page.url();
  });
  assert.match(decodeURIComponent(link), /"name":"Mistral-7B-v0\.1"/);
  await withPage({}, async (page) => {
    const chosen = await page.locator('select.ts-select').first().evaluate((select) => select.selectedOptions[0].textContent);
    assert.equal(chosen, 'Your model: Mistral-7B-v0.1');
  }, link);
});

test('a link with a number out of range says its limits as people write them', async () => {
  const address = `${harness.url}#s=${encodeURIComponent(JSON.stringify({ training: { sequence: 1e9 } }))}`;
  await withPage({}, async (page) => {
    const notice = (await page.locator('.ts-notice').first().textContent()).trim();
    assert.match(notice, /training\.sequence: must be between 1 and 10 million/);
    assert.doesNotMatch(notice, /e\+|\d{4}/);
  }, address);
});

test('the step questions open the step at their moment: the peak, the first recompute, the first gather', async () => {
  await withPage({}, async (page) => {
    await openQuiz(page);
    for (const item of bank.items.filter((candidate) => candidate.show.moment)) {
      await followShowMe(page, item.id);
      await page.waitForFunction(() => document.querySelector('.ts-showme-target') !== null);
      // The engine's timeline for the question's scenario, and the event the moment names.
      const expected = await page.evaluate((moment) => {
        const timeline = JSON.parse(window.trainscope.engine.module.stepTimeline(JSON.stringify(window.trainscope.overrides())));
        if (moment === 'peak') return timeline.peak_event;
        const onLayer = timeline.events.findIndex((event) => event.phase === moment && event.block === 'layer');
        return onLayer >= 0 ? onLayer : timeline.events.findIndex((event) => event.phase === moment);
      }, item.show.moment);
      assert.ok(expected >= 0, `${item.id}: the step has a “${item.show.moment}” event`);
      const scrubber = page.locator('[data-ts-section="step"] .ts-step-scrubber');
      // The section draws the question's step in the next frame, then places the playhead.
      await page.waitForFunction((index) => Number(document.querySelector('[data-ts-section="step"] .ts-step-scrubber').value) === index, expected, { timeout: 3000 }).catch(() => {});
      assert.equal(Number(await scrubber.inputValue()), expected, `${item.id}: the playhead is on the “${item.show.moment}” event`);
      const phase = await page.locator('[data-ts-section="step"] [data-figure="step-phase"]').textContent();
      if (item.show.moment === 'gather') assert.match(phase, /gather.*layer/i, `${item.id}: the phase says which layer's weights are gathered: “${phase}”`);
      if (item.show.moment === 'recompute') assert.match(phase, /recomput/i, `${item.id}: the phase names the recomputation: “${phase}”`);
      await page.getByRole('button', { name: /^Back to question/ }).click();
    }
  });
});
