// Time over GPUs: the curve's learner point is the engine's compute.seconds and follows the GPUs
// slider, the curve is updated in place (the same nodes on every step), and its labels fit.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { engineEstimate, openPage, startHarness } from './harness.mjs';
import { assertLooksRight, renderEverything, settle } from './looks.mjs';

let harness;
before(async () => { harness = await startHarness(); });
after(async () => { await harness?.close(); });

async function withCurve(options, body) {
  const { page, context, problems } = await openPage(harness.browser, harness.url, options);
  try {
    await page.locator('.ts-curve').scrollIntoViewIfNeeded();
    await page.waitForSelector('.ts-curve');
    await settle(page);
    await body(page);
    assert.deepEqual(problems, [], 'no console errors, page errors or outside requests');
  } finally {
    await context.close();
  }
}

/** Moves the time section's GPUs slider to a stop, as a drag does: one input event. */
function moveGpus(page, position) {
  return page.evaluate((to) => {
    const range = document.querySelector('.ts-curve').closest('section').querySelector('[data-field="parallel.gpus"] input[type=range]');
    range.value = String(to);
    range.dispatchEvent(new Event('input', { bubbles: true }));
  }, position);
}

/** The learner's point as drawn: its printed value and where its dot sits in the plot (0 to 1). */
function learnerPoint(page) {
  return page.evaluate(() => {
    const plot = document.querySelector('.ts-curve-plot').getBoundingClientRect();
    const dot = document.querySelector('.ts-curve-dot-you').getBoundingClientRect();
    const value = document.querySelector('[data-figure="curve-seconds-you"]');
    return {
      seconds: Number(value.dataset.value), text: value.textContent,
      x: (dot.left + dot.width / 2 - plot.left) / plot.width, y: (dot.top + dot.height / 2 - plot.top) / plot.height,
      aria: document.querySelector('.ts-curve').getAttribute('aria-label'),
    };
  });
}

function countNodes(page) {
  return page.evaluate(() => {
    const walker = document.createTreeWalker(document.querySelector('.ts-curve'), NodeFilter.SHOW_ALL);
    let nodes = 0;
    while (walker.nextNode()) nodes += 1;
    return nodes;
  });
}

test('the learner point is the engine’s compute.seconds and moves with the GPUs slider, on the same nodes', async () => {
  await withCurve({}, async (page) => {
    const nodes = await countNodes(page);
    const seen = [];
    for (const position of [3, 11, 14, 0, 17]) {
      await moveGpus(page, position);
      await settle(page);
      const estimate = await engineEstimate(page);
      const point = await learnerPoint(page);
      assert.equal(point.seconds, estimate.compute.seconds, `stop ${position}: the point is compute.seconds`);
      const formatted = await page.evaluate((s) => window.trainscope.engine.module.formatQuantity(s, 'duration', 0), estimate.compute.seconds);
      assert.equal(point.text, formatted, 'printed by the engine’s formatter');
      assert.ok(point.aria.includes(formatted), `the text alternative names the learner's time: ${point.aria}`);
      seen.push({ gpus: estimate.scenario.parallel.gpus, ...point });
      assert.equal(await countNodes(page), nodes, `stop ${position}: no node added or removed`);
    }
    // More GPUs: further right and lower (a shorter time is nearer the bottom).
    const byGpus = [...seen].sort((a, b) => a.gpus - b.gpus);
    for (let index = 1; index < byGpus.length; index += 1) {
      assert.ok(byGpus[index].x > byGpus[index - 1].x, `${byGpus[index].gpus} GPUs sit right of ${byGpus[index - 1].gpus}`);
      assert.ok(byGpus[index].y > byGpus[index - 1].y, `${byGpus[index].gpus} GPUs sit below ${byGpus[index - 1].gpus}`);
    }
  });
});

test('the lesson’s points: one GPU and 16,384 GPUs are marked with the engine’s times', async () => {
  await withCurve({}, async (page) => {
    await moveGpus(page, 5);
    await settle(page);
    const estimate = await engineEstimate(page);
    const onOne = await page.locator('[data-figure="curve-seconds-one"]').getAttribute('data-value');
    assert.equal(Number(onOne), estimate.compute.seconds_on_one_gpu);
    const lesson = estimate.compute.time_over_gpus.find((p) => p.gpus === estimate.compute.lesson_cluster_gpus);
    const onCluster = await page.locator('[data-figure="curve-seconds-cluster"]').getAttribute('data-value');
    assert.equal(Number(onCluster), lesson.seconds);
    assert.match(await page.locator('.ts-curve-mark-cluster').innerText(), /16,384 GPUs/);
  });
});

for (const width of [320, 360, 1280]) {
  for (const colorScheme of ['light', 'dark']) {
    test(`nothing overlaps or is cut off at ${width} px, ${colorScheme}, across the GPUs slider`, async () => {
      await withCurve({ viewport: { width, height: 900 }, colorScheme }, async (page) => {
        // Sections off screen skip rendering, and their text would read as piled up: render them all.
        await renderEverything(page);
        // That moves what is below it: bring the curve back on screen, where a step redraws it at once
        // (a figure off screen catches up only once the input rests, docs/page.md).
        await page.locator('.ts-curve').scrollIntoViewIfNeeded();
        await settle(page);
        for (const position of [0, 4, 10, 14, 17]) {
          await moveGpus(page, position);
          await settle(page);
          await assertLooksRight(page, `${width} px, ${colorScheme}, GPUs stop ${position}`);
          // The learner's point is always named on screen.
          assert.ok(await page.locator('.ts-curve-mark-you').isVisible(), `stop ${position}: the learner's point is labelled`);
          // The lesson's two points are named too, wherever they are not the learner's own.
          if (position !== 0) assert.ok(await page.locator('.ts-curve-mark-one').isVisible(), `stop ${position}: one GPU is labelled`);
          if (position !== 14) assert.ok(await page.locator('.ts-curve-mark-cluster').isVisible(), `stop ${position}: 16,384 GPUs are labelled`);
        }
        if (process.env.TS_SCREENSHOTS) {
          await page.locator('.ts-curve-figure').screenshot({ path: `test-artifacts/time-curve-${width}-${colorScheme}.png` });
        }
      });
    });
  }
}

// Issue 23: the communication curve beside the ideal one, where it stops paying, the engine's
// sentence and its predicted utilisation; issue 24 item 16: one meaning per mark.
const RUNS = ['deepseek-v3/pretraining', 'llama3-405b/long-context-128k'];

/** What the curve figure states about communication, read from the page. */
function communicationOnScreen(page) {
  return page.evaluate(() => {
    const figure = document.querySelector('.ts-curve-figure');
    const second = figure.querySelector('.ts-curve-line-second');
    const stop = figure.querySelector('[data-figure="curve-seconds-stop"]');
    const predicted = document.querySelector('[data-figure="predicted-mfu"]');
    return {
      secondPoints: (second.getAttribute('points') ?? '').split(' ').filter(Boolean).length,
      summary: figure.querySelector('[data-figure="communication-summary"]').textContent,
      stop: stop.closest('.ts-curve-label').hidden ? null : Number(stop.dataset.value),
      predicted: predicted ? Number(predicted.dataset.value) : null,
      clusterName: figure.querySelector('.ts-curve-mark-cluster span').textContent,
    };
  });
}

/** Waits until the page's predicted utilisation is the engine's (the time section's card, updated when the input rests). */
function predictedShows(page, expected) {
  return page.waitForFunction(
    (value) => Number(document.querySelector('[data-figure="predicted-mfu"]')?.dataset.value) === value,
    expected,
    { timeout: 5000 },
  );
}

test('the curve without a run: the communication curve, its stop mark at the engine’s count, its sentence and predicted utilisation', async () => {
  await withCurve({}, async (page) => {
    await moveGpus(page, 5);
    await settle(page);
    const estimate = await engineEstimate(page);
    const shown = await communicationOnScreen(page);
    const second = estimate.compute.time_over_gpus_communication;
    assert.equal(shown.secondPoints, second.length, 'one point of the dashed curve per engine point');
    assert.equal(shown.summary, estimate.communication.summary, 'the engine’s one sentence');
    // The predicted utilisation is the time section's card, beside the controls: it catches up once the input rests.
    await predictedShows(page, estimate.communication.predicted_mfu);
    assert.ok(estimate.communication.stops_paying_gpus > 0, 'the default model stops paying within the slider’s range');
    const stop = second.find((point) => point.gpus === estimate.communication.stops_paying_gpus);
    assert.equal(shown.stop, stop.seconds, 'the stop mark sits on the dashed curve at the engine’s count');
  });
});

for (const width of [320, 1280]) {
  for (const colorScheme of ['light', 'dark']) {
    test(`each published run at ${width} px, ${colorScheme}: the engine’s curves and sentence, the lesson mark named for the model on screen, nothing overlapping`, async () => {
      await withCurve({ viewport: { width, height: 900 }, colorScheme }, async (page) => {
        await renderEverything(page);
        for (const run of RUNS) {
          await page.locator(`[data-run="${run}"]`).click();
          await page.locator('.ts-curve').scrollIntoViewIfNeeded();
          await settle(page);
          const estimate = await engineEstimate(page);
          const shown = await communicationOnScreen(page);
          assert.equal(shown.secondPoints, estimate.compute.time_over_gpus_communication.length, run);
          assert.equal(shown.summary, estimate.communication.summary, run);
          await predictedShows(page, estimate.communication.predicted_mfu);
          const model = JSON.parse(await page.evaluate(() => window.trainscope.engine.module.presets()))
            .find((preset) => preset.id === run.split('/')[0]).name;
          if (estimate.scenario.parallel.gpus !== estimate.compute.lesson_cluster_gpus)
            assert.ok(shown.clusterName.includes(model), `the lesson's mark names the model its time is for: ${shown.clusterName}`);
          await assertLooksRight(page, `${run}, ${width} px, ${colorScheme}`);
        }
      });
    });
  }
}

test('one meaning per mark: the learner’s GPUs are a square on the time axis and on the curve, the lesson’s cluster is not', async () => {
  await withCurve({}, async (page) => {
    await moveGpus(page, 5);
    await settle(page);
    const looks = await page.evaluate(() => {
      const style = (selector) => {
        const s = getComputedStyle(document.querySelector(selector));
        return { background: s.backgroundColor, radius: s.borderTopLeftRadius, transform: s.transform };
      };
      return { axis: style('.ts-time-cluster'), you: style('.ts-curve-dot-you'), lesson: style('.ts-curve-dot-cluster') };
    });
    assert.deepEqual({ background: looks.you.background, radius: looks.you.radius }, { background: looks.axis.background, radius: looks.axis.radius });
    assert.notDeepEqual(looks.lesson, looks.you, 'the lesson’s cluster has a mark of its own');
  });
});

test('the caption names the marks drawn, and only those: on one GPU no circle for one GPU, on more GPUs one', async () => {
  await withCurve({}, async (page) => {
    const shown = () => page.evaluate(() => {
      const figure = document.querySelector('.ts-curve-figure');
      const drawn = (kind) => !figure.querySelector(`.ts-curve-dot-${kind}`).hidden;
      return {
        caption: figure.querySelector('figcaption').textContent,
        one: drawn('one'),
        stop: drawn('stop'),
        gpus: window.trainscope.scenario().parallel.gpus,
      };
    });
    const onOne = await shown();
    assert.equal(onOne.gpus, 1);
    assert.equal(onOne.one, false, 'one GPU is the learner\'s own mark');
    assert.doesNotMatch(onOne.caption, /circle/, `no circle to name: ${onOne.caption}`);
    assert.match(onOne.caption, /the square is your 1 GPU/);
    assert.equal(/red ring/.test(onOne.caption), onOne.stop, 'the stop mark is named exactly when drawn');
    await moveGpus(page, 5);
    await settle(page);
    const onMore = await shown();
    assert.ok(onMore.gpus > 1);
    assert.equal(onMore.one, true);
    assert.match(onMore.caption, /the filled circle one GPU/);
    assert.equal(/red ring/.test(onMore.caption), onMore.stop);
  });
});

test('the model FLOPs utilisation card shows only when it differs from the utilisation set: with recomputation', async () => {
  await withCurve({}, async (page) => {
    const card = () => page.evaluate(() => {
      const figure = document.querySelector('[data-ts-section="time"] [data-figure="mfu"]');
      return { hidden: figure.closest('li').hidden, value: Number(figure.dataset.value) };
    });
    const before = await card();
    const estimate = await engineEstimate(page);
    assert.equal(estimate.scenario.training.recompute, 'none');
    assert.equal(estimate.compute.mfu, estimate.scenario.hardware.utilization);
    assert.equal(before.hidden, true, 'no second copy of the utilisation slider\'s figure');
    await page.locator('[data-ts-section="sharding-checkpointing"] [data-field="training.recompute"] input[value="full"]').check();
    await page.waitForFunction(() => {
      const figure = document.querySelector('[data-ts-section="time"] [data-figure="mfu"]');
      figure?.scrollIntoView({ block: 'center' });
      return figure && !figure.closest('li').hidden;
    });
    const after = await card();
    const recomputed = await engineEstimate(page);
    assert.equal(after.value, recomputed.compute.mfu);
    assert.ok(recomputed.compute.mfu < recomputed.scenario.hardware.utilization, 'recomputed FLOPs do not count as model FLOPs');
  });
});
