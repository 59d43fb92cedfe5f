// One training step (issue 12): the step chart's peak is the engine's per-GPU total, the controls
// redraw it in place (checkpointing lowers it, ZeRO-3 adds the gather bumps), the playhead plays,
// pauses, steps and scrubs by keyboard, stays still under reduced motion, and travels in the link.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { engineEstimate, startHarness, withOpenPage } from './harness.mjs';
import { assertLooksRight, renderEverything, settle } from './looks.mjs';

let harness;
before(async () => { harness = await startHarness(); });
after(async () => { await harness?.close(); });

/** Scrolls to a section, built or still pending (the idle callback may build it at any moment). */
async function bringNear(page, name) {
  await page.evaluate((section) => document.querySelector(`[data-ts-section="${section}"]`).scrollIntoView({ block: 'center' }), name);
  await page.waitForSelector(`.ts-section[data-ts-section="${name}"]:not(.ts-section-pending)`);
}

/** Opens the page (under dist/index.html's CSP), brings the step section near, and waits for it. */
async function withStep(options, body, address = harness.url) {
  await withOpenPage(harness.browser, address, options, async (page, context) => {
    await bringNear(page, 'step');
    await page.waitForSelector('.ts-step [data-figure="step-peak"][data-value]');
    await settle(page);
    await body(page, context);
  });
}

const step = (page) => page.locator('.ts-step');
const peakValue = async (page) => Number(await step(page).locator('[data-figure="step-peak"]').getAttribute('data-value'));
const phaseIndex = async (page) => Number(await step(page).locator('[data-figure="step-phase"]').getAttribute('data-index'));
const phaseText = (page) => step(page).locator('[data-figure="step-phase"]').textContent();
const areaPath = (page, key) => step(page).locator(`.ts-step-area-${key}`).getAttribute('d');

/** A few animation frames: long enough for a playing step to move, with no clock in the test. */
function frames(page, count = 6) {
  return page.evaluate((n) => new Promise((resolve) => {
    let left = n;
    const next = () => (left-- <= 0 ? resolve() : requestAnimationFrame(next));
    requestAnimationFrame(next);
  }), count);
}

function countNodes(page) {
  return page.evaluate(() => {
    const walker = document.createTreeWalker(document.querySelector('.ts-step'), NodeFilter.SHOW_ALL);
    let nodes = 0;
    while (walker.nextNode()) nodes += 1;
    return nodes;
  });
}

test('the peak on the step chart is the engine’s per-GPU total, the one the sharding section prints', async () => {
  await withStep({}, async (page) => {
    const estimate = await engineEstimate(page);
    assert.equal(await peakValue(page), estimate.training.per_gpu.total);
    await bringNear(page, 'sharding-checkpointing');
    const shown = page.locator('.ts-section[data-ts-section="sharding-checkpointing"] [data-figure="per-gpu-total"]');
    await shown.waitFor();
    assert.equal(await peakValue(page), Number(await shown.getAttribute('data-value')));
    assert.equal(await step(page).locator('[data-figure="step-peak"]').textContent(), await shown.textContent(), 'the same writing too');
    // The peak is explained in words, with the same figure.
    assert.match(await step(page).locator('[data-figure="step-peak-text"]').textContent(), new RegExp(`^The peak, ${(await shown.textContent()).replace('.', '\\.')}, comes after the loss`));
  });
});

test('full recompute lowers the drawn peak and the activations’ area; the chart is redrawn on the same nodes', async () => {
  await withStep({}, async (page) => {
    const nodes = await countNodes(page);
    const before = await peakValue(page);
    const activationsBefore = await step(page).locator('.ts-step-area-activations').evaluate((path) => path.getBBox().height);
    await step(page).getByRole('radio', { name: /Full/ }).check();
    await settle(page);
    const afterPeak = await peakValue(page);
    assert.ok(afterPeak < before, `full recompute: ${afterPeak} < ${before}`);
    assert.equal(afterPeak, (await engineEstimate(page)).training.per_gpu.total);
    const activationsAfter = await step(page).locator('.ts-step-area-activations').evaluate((path) => path.getBBox().height);
    assert.ok(activationsAfter < activationsBefore, `the activations' pile is lower: ${activationsAfter} < ${activationsBefore} px`);
    assert.equal(await countNodes(page), nodes, 'no node added or removed');
  });
});

test('ZeRO-3 draws the gathered weights as a bump per layer, and stage 0 draws none', async () => {
  await withStep({}, async (page) => {
    assert.equal(await areaPath(page, 'gathered_weights'), '', 'stage 0: nothing gathered');
    const gpus = step(page).locator('[data-field="parallel.gpus"] input:not([type=range])');
    await gpus.fill('64');
    await gpus.press('Enter');
    await step(page).locator('[data-field="parallel.zero_stage"] select').selectOption('3');
    await settle(page);
    const d = await areaPath(page, 'gathered_weights');
    assert.ok(d.length > 0, 'stage 3: the gathered weights are drawn');
    // Each layer's gather rises and falls: the area's top edge goes up and down once per layer.
    const bumps = await step(page).locator('.ts-step-area-gathered_weights').evaluate((path) => {
      // The top edge runs left to right; the bottom edge comes back right to left.
      const points = [...path.getAttribute('d').matchAll(/[ML]([\d.]+),([\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
      const back = points.findIndex(([x], index) => index > 0 && x < points[index - 1][0]);
      const top = points.slice(0, back < 0 ? points.length : back).map(([, y]) => y);
      let rises = 0;
      for (let i = 1; i < top.length; i += 1) if (top[i] < top[i - 1] - 0.5 && !(top[i - 1] < (top[i - 2] ?? Infinity) - 0.5)) rises += 1;
      return rises;
    });
    const timeline = await page.evaluate(() => JSON.parse(window.trainscope.engine.module.stepTimeline(JSON.stringify(window.trainscope.overrides()))));
    const layers = timeline.layers;
    assert.ok(bumps >= layers, `at least one bump per layer: ${bumps} rises for ${layers} layers`);
    // The phase under the playhead names the gathering.
    const gatherIndex = timeline.events.findIndex((event) => event.phase === 'gather' && event.block === 'layer');
    await step(page).locator('.ts-step-scrubber').fill(String(gatherIndex));
    assert.match(await phaseText(page), /^Gather, layer 1 of \d+: its full weights are gathered/);
  });
});

test('play advances the playhead, pause stops it, and the live region names the phase', async () => {
  await withStep({}, async (page) => {
    const play = step(page).locator('.ts-step-play');
    assert.equal(await phaseIndex(page), 0);
    await play.click();
    await page.waitForFunction(() => Number(document.querySelector('.ts-step [data-figure="step-phase"]').dataset.index) > 3);
    await play.click();
    assert.equal(await play.textContent(), 'Play');
    const stopped = await phaseIndex(page);
    const left = await step(page).locator('.ts-step-playhead').evaluate((el) => el.style.left);
    await frames(page, 10);
    assert.equal(await phaseIndex(page), stopped, 'paused: the phase stays');
    assert.equal(await step(page).locator('.ts-step-playhead').evaluate((el) => el.style.left), left, 'paused: the playhead stays');
    await page.waitForFunction(() => document.querySelector('.ts-step [aria-live=polite]').textContent.length > 0);
    assert.equal(await step(page).locator('[aria-live=polite]').textContent(), await phaseText(page));
  });
});

test('reduced motion: no play button and no animation; the scrubber and the step buttons still move the playhead', async () => {
  await withStep({ reducedMotion: 'reduce' }, async (page) => {
    assert.equal(await step(page).locator('.ts-step-play').isVisible(), false, 'no play button');
    const scrubber = step(page).locator('.ts-step-scrubber');
    await scrubber.focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await phaseIndex(page), 1);
    await frames(page, 6);
    assert.equal(await phaseIndex(page), 1, 'nothing plays by itself');
    await step(page).getByRole('button', { name: 'Next event' }).click();
    assert.equal(await phaseIndex(page), 2);
  });
});

test('keyboard only: Tab to the step buttons and the scrubber; each press names another phase', async () => {
  await withStep({}, async (page) => {
    const forward = step(page).getByRole('button', { name: 'Next event' });
    await forward.focus();
    const first = await phaseText(page);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Space');
    assert.equal(await phaseIndex(page), 2);
    assert.notEqual(await phaseText(page), first);
    assert.match(await phaseText(page), /^Forward, layer 3 of 80: its activations are kept/);
    await page.keyboard.press('Shift+Tab'); // Play
    await page.keyboard.press('Shift+Tab'); // Back
    await page.keyboard.press('Enter');
    assert.equal(await phaseIndex(page), 1);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab'); // the scrubber
    await page.keyboard.press('End');
    const events = Number(await step(page).locator('.ts-step-scrubber').getAttribute('max')) + 1;
    assert.equal(await phaseIndex(page), events - 1);
    assert.match(await phaseText(page), /^Optimizer step/);
    assert.equal(await step(page).locator('.ts-step-scrubber').getAttribute('aria-valuetext'), await phaseText(page));
    // The phase table, collapsed until asked for.
    const table = step(page).locator('.ts-step-table');
    assert.equal(await table.getAttribute('open'), null);
    await table.locator('summary').click();
    const rows = await table.locator('tbody tr:not([hidden]) th').allTextContents();
    assert.deepEqual(rows, ['Forward pass', 'Loss', 'Backward pass', 'Optimizer step']);
  });
});

test('the link keeps the playhead: step=<event> is written, read on load, and an anchor is left alone', async () => {
  let address;
  await withStep({}, async (page) => {
    await step(page).getByRole('radio', { name: /Selective/ }).check();
    await step(page).locator('.ts-step-scrubber').fill('40');
    await page.waitForFunction(() => window.location.hash.endsWith('&step=40'));
    address = page.url();
  });
  await withStep({}, async (page) => {
    assert.equal(await phaseIndex(page), 40);
    assert.equal(await step(page).locator('.ts-step-scrubber').inputValue(), '40');
    assert.match(await phaseText(page), /^Forward, layer 41 of 80: its activations are kept, except the attention scores/);
  }, address);
  await withStep({}, async (page) => {
    assert.equal(await phaseIndex(page), 0);
    assert.equal(new URL(page.url()).hash, '#foo');
    assert.equal(await page.locator('.ts-notice').isVisible(), false, 'no complaint about an anchor');
  }, `${harness.url}#foo`);
});

test('the playhead keeps its share of the step when the scenario changes', async () => {
  await withStep({}, async (page) => {
    await step(page).locator('.ts-step-scrubber').fill('120');
    const share = () => step(page).locator('.ts-step-playhead').evaluate((el) => parseFloat(el.style.left));
    const before = await share();
    await step(page).getByRole('radio', { name: /Full/ }).check();
    await settle(page);
    assert.ok(Math.abs(await share() - before) < 1, `the playhead stays near ${before}%`);
    assert.match(await phaseText(page), /^(Backward|Recompute)/);
  });
});

test('an engine answer with errors names the field and keeps the last good chart', async () => {
  await withStep({}, async (page) => {
    const drawn = await areaPath(page, 'activations');
    await page.evaluate(() => {
      // The page asks the engine once per input (web/src/engine/view.ts): the step's errors come in its "step" member.
      const module = window.trainscope.engine.module;
      const real = module.view;
      module.view = (json, request) => {
        const answer = JSON.parse(real(json, request));
        if (request.step) answer.step = { errors: [{ field: 'training.sequence', message: 'is not simulated' }], notes: [] };
        return JSON.stringify(answer);
      };
    });
    await step(page).getByRole('radio', { name: /Full/ }).check();
    await settle(page);
    const message = step(page).locator('.ts-step-errors');
    assert.ok(await message.isVisible());
    assert.match(await message.textContent(), /training\.sequence: is not simulated/);
    assert.equal(await areaPath(page, 'activations'), drawn, 'the last good chart stays');
  });
});

test('200 slider steps leave the node count flat, and the chart follows each', async () => {
  await withStep({}, async (page) => {
    await bringNear(page, 'activations');
    await page.waitForSelector('.ts-section[data-ts-section="activations"] [data-field="training.sequence"] input[type=range]');
    await step(page).scrollIntoViewIfNeeded();
    const nodes = await countNodes(page);
    const paths = await step(page).locator('path').count();
    const seen = await page.evaluate(async () => {
      const range = document.querySelector('.ts-section[data-ts-section="activations"] [data-field="training.sequence"] input[type=range]');
      const max = Number(range.max);
      const peaks = new Set();
      // One step per frame, as a drag moves: the chart redraws once per frame.
      const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      for (let i = 0; i < 200; i += 1) {
        range.value = String(i % (max + 1));
        range.dispatchEvent(new Event('input', { bubbles: true }));
        await frame();
        peaks.add(document.querySelector('.ts-step [data-figure="step-peak"]').dataset.value);
      }
      return peaks.size;
    });
    assert.ok(seen > 3, `the peak followed the slider (${seen} different peaks)`);
    assert.equal(await countNodes(page), nodes);
    assert.equal(await step(page).locator('path').count(), paths);
  });
});

for (const width of [320, 1280]) {
  for (const colorScheme of ['light', 'dark']) {
    test(`the step section: nothing overlaps or is cut off at ${width} px, ${colorScheme}`, async () => {
      await withStep({ viewport: { width, height: 900 }, colorScheme }, async (page) => {
        await renderEverything(page);
        await step(page).locator('.ts-step-table summary').click();
        await assertLooksRight(page, `${width} px, ${colorScheme}, default`);
        const gpus = step(page).locator('[data-field="parallel.gpus"] input:not([type=range])');
        await gpus.fill('64');
        await gpus.press('Enter');
        await step(page).locator('[data-field="parallel.zero_stage"] select').selectOption('3');
        await step(page).locator('.ts-step-scrubber').fill('200');
        await settle(page);
        await assertLooksRight(page, `${width} px, ${colorScheme}, ZeRO-3 on 64 GPUs`);
      });
    });
  }
}

test('off screen the chart is redrawn once the page is idle, so what a screen reader reaches is current', async () => {
  await withStep({}, async (page) => {
    const before = await peakValue(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await settle(page);
    await page.evaluate(() => window.trainscope.setScenario({ training: { recompute: 'full' } }));
    await page.waitForFunction((old) => Number(document.querySelector('.ts-step [data-figure="step-peak"]').dataset.value) !== old, before);
    assert.equal(await peakValue(page), (await engineEstimate(page)).training.per_gpu.total);
    assert.match(await phaseText(page), /^Forward, layer 1 of 80: only its input is kept/);
  });
});

test('a click on the chart moves the playhead to the event under it', async () => {
  await withStep({}, async (page) => {
    // The locator scrolls the plot into view first: a click at a box's page coordinates taken
    // before the page settled could land beside it.
    const plot = step(page).locator('.ts-step-plot');
    await plot.scrollIntoViewIfNeeded();
    const box = await plot.boundingBox();
    await plot.click({ position: { x: box.width * 0.95, y: box.height / 2 } });
    const expected = await page.evaluate(() => {
      const timeline = JSON.parse(window.trainscope.engine.module.stepTimeline(JSON.stringify(window.trainscope.overrides())));
      return timeline.events.findIndex((event) => event.start + event.seconds >= 0.95 * timeline.seconds);
    });
    await page.waitForFunction((index) => document.querySelector('[data-ts-section="step"] [data-figure="step-phase"]')?.getAttribute('data-index') === String(index), expected, { timeout: 3000 }).catch(() => {});
    assert.equal(await phaseIndex(page), expected, 'the event under 95% of the step');
    const share = await step(page).locator('.ts-step-playhead').evaluate((el) => parseFloat(el.style.left));
    assert.ok(share >= 95, `the playhead is at the end of that event, at or after the click: ${share}%`);
  });
});

// Issue 23: communication as its own phases in time; issue 24 item 14: what changes is visible,
// and ZeRO on one GPU says why nothing shards.
const RUNS = ['deepseek-v3/pretraining', 'llama3-405b/long-context-128k'];

/** The communication bar as drawn: each stretch's phase and seconds, and each key's figure. */
function communicationBar(page) {
  return page.evaluate(() => {
    const figure = document.querySelector('[data-figure="step-communication"]');
    const segments = [...figure.querySelectorAll('.ts-comm-segment')].filter((segment) => !segment.hidden);
    const keys = [...figure.querySelectorAll('.ts-comm-key')].filter((key) => !key.hidden);
    return {
      schedule: segments.map((segment) => ({ phase: segment.dataset.phase, seconds: Number(segment.dataset.value) })),
      keys: Object.fromEntries(keys.map((key) => {
        const value = key.querySelector('strong');
        return [value.dataset.figure.replace('comm-', ''), Number(value.dataset.value)];
      })),
      narrowest: Math.min(...segments.map((segment) => segment.getBoundingClientRect().width)),
    };
  });
}

for (const width of [320, 360, 1280]) {
  for (const colorScheme of ['light', 'dark']) {
    test(`each published run's step at ${width} px, ${colorScheme}: communication in time as the engine schedules it, every stretch visible, nothing overlapping`, async () => {
      await withStep({ viewport: { width, height: 900 }, colorScheme }, async (page) => {
        await renderEverything(page);
        for (const run of RUNS) {
          await page.locator(`[data-run="${run}"]`).click();
          await bringNear(page, 'step');
          await settle(page);
          const estimate = await engineEstimate(page);
          const shown = await communicationBar(page);
          const { communication } = estimate;
          assert.deepEqual(shown.schedule, communication.schedule.map(({ phase, seconds }) => ({ phase, seconds })), run);
          const exposed = Object.fromEntries(communication.terms.filter((term) => term.exposed_seconds > 0).map((term) => [term.id, term.exposed_seconds]));
          assert.deepEqual(shown.keys, { compute: communication.compute_seconds, ...exposed }, `${run}: each phase's key is the engine's time`);
          assert.ok(shown.narrowest >= 3, `${run}: the shortest wait is still drawn (${shown.narrowest} px)`);
          await assertLooksRight(page, `${run} step, ${width} px, ${colorScheme}`);
        }
      });
    });
  }
}

test('70B on one GPU: the model states lie under the step chart’s scale, so checkpointing visibly changes the drawn pile', async () => {
  await withStep({}, async (page) => {
    const estimate = await engineEstimate(page);
    const focus = step(page).locator('[data-figure="step-focus"]');
    assert.ok(await focus.isVisible(), 'the chart says it is zoomed in on what changes');
    assert.equal(Number(await focus.getAttribute('data-value')), estimate.training.per_gpu.model_states, 'what lies under the scale is the engine’s model states');
    assert.equal(await step(page).locator('.ts-step-area-weights').getAttribute('d'), '', 'the weights are not drawn');
    const ticks = () => step(page).locator('.ts-step-ytick:visible').allInnerTexts();
    const before = { area: await areaPath(page, 'activations'), ticks: await ticks() };
    await page.locator('.ts-step [data-field="training.recompute"] input[value="full"]').check();
    await settle(page);
    const after = { area: await areaPath(page, 'activations'), ticks: await ticks() };
    assert.notEqual(after.area, before.area, 'the activations are drawn anew');
    assert.notDeepEqual(after.ticks, before.ticks, 'the scale of what changes follows it');
  });
});

for (const language of ['en', 'de', 'es']) {
  test(`ZeRO-3 on one GPU says, in ${language}, the engine's sentence on why nothing shards; on 8 GPUs it says nothing`, async () => {
    const oneGpu = `#s=${encodeURIComponent('{"parallel":{"gpus":1,"zero_stage":3}}')}`;
    await withStep({ viewport: { width: 360, height: 900 } }, async (page) => {
      const note = step(page).locator('[data-figure="zero-unsharded"]');
      const engineText = await page.evaluate(() => JSON.parse(window.trainscope.engine.module.view(JSON.stringify(window.trainscope.overrides()), { knownReference: '', step: false, communicationCurve: false, communicationSchedule: false, shownControls: '*' })).text.zero_unsharded);
      assert.ok(engineText.length > 0);
      assert.equal(await note.innerText(), engineText);
      if (language !== 'en') assert.ok(!engineText.startsWith('ZeRO stage'), `the sentence is in ${language}: ${engineText}`);
      await page.evaluate(() => { location.hash = `#s=${encodeURIComponent('{"parallel":{"gpus":8,"zero_stage":3}}')}`; });
      await page.waitForFunction(() => document.querySelector('[data-figure="zero-unsharded"]').hidden);
    }, `${harness.url}${language === 'en' ? '' : `?lang=${language}`}${oneGpu}`);
  });
}
