// The figures on a phone and on a desktop (issue 11, items 6–9): the time axis labels only what
// fits, the time figure prints each time once, the sharding bar stays readable at many GPUs, the
// two memory legends keep their own headings, the GPU select's choices fit it, and the quiz's
// current-question marker is not clipped.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { engineEstimate, figure, openDeeperParts, startHarness, withOpenPage } from './harness.mjs';
import { engineModule } from '../web/wasm-engine.mjs';

const formatDuration = (value) => engineModule.formatQuantity(value, 'duration', 0);
const STORY_405B = 'Llama 3 405B as Meta trained it';
/** docs/page.md's own example link: the 70B model fully sharded over 64 GPUs. */
const SHARDED_64 = `#s=${encodeURIComponent('{"parallel":{"gpus":64,"zero_stage":3}}')}`;

let harness;
before(async () => { harness = await startHarness(); });
after(async () => { await harness?.close(); });

function withPage(address, options, body) {
  return withOpenPage(harness.browser, address, options, body);
}

/** Opens every deeper part, builds every lazily built section, shows `selector`, and waits for two frames (ResizeObservers run before a frame paints). */
async function show(page, selector) {
  await openDeeperParts(page);
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.waitForFunction(() => document.querySelector('.ts-section-pending') === null);
  await page.waitForSelector(selector, { state: 'attached' });
  await page.locator(selector).first().scrollIntoViewIfNeeded();
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** The time figure's labels (axis marks and the two points) and the figure's content box, in page pixels. */
function timeLabels(page) {
  return page.evaluate(() => {
    const figure = document.querySelector('.ts-time').closest('.ts-figure');
    const style = getComputedStyle(figure);
    const outer = figure.getBoundingClientRect();
    const box = {
      left: outer.left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft),
      right: outer.right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight),
    };
    const visible = (element) => element.getClientRects().length > 0;
    const rect = (element) => {
      const r = element.getBoundingClientRect();
      return { text: element.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    };
    return {
      box,
      ticks: [...figure.querySelectorAll('.ts-axis-log .ts-tick')].filter(visible).map(rect),
      points: [...figure.querySelectorAll('.ts-time-label')].filter(visible).map(rect),
    };
  });
}

const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

for (const story of [null, STORY_405B]) {
  test(`time axis labels (${story ?? 'the default scenario'}) neither overlap nor leave the figure at 320, 360, 900 and 1280 px`, async () => {
    await withPage(harness.url, { viewport: { width: 1280, height: 900 } }, async (page) => {
      if (story) await page.getByRole('button', { name: story }).click();
      for (const width of [320, 360, 900, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await show(page, '.ts-time');
        const { box, ticks, points } = await timeLabels(page);
        assert.ok(ticks.length >= 2, `${width} px: at least two marks labelled, got ${ticks.map((t) => t.text).join(', ')}`);
        const labels = [...ticks, ...points];
        for (const label of labels) {
          assert.ok(label.left >= box.left - 0.5 && label.right <= box.right + 0.5,
            `${width} px: “${label.text}” spans ${label.left.toFixed(1)}–${label.right.toFixed(1)}, outside the figure’s ${box.left.toFixed(1)}–${box.right.toFixed(1)}`);
        }
        for (let i = 0; i < labels.length; i += 1) {
          for (let j = i + 1; j < labels.length; j += 1) {
            assert.ok(!overlap(labels[i], labels[j]), `${width} px: “${labels[i].text}” and “${labels[j].text}” overlap`);
          }
        }
      }
    });
  });
}

test('the time figure prints each time once: on one GPU a single point, on many GPUs one label per time', async () => {
  const count = (text, part) => text.split(part).length - 1;
  await withPage(`${harness.url}#s=${encodeURIComponent('{"parallel":{"gpus":1}}')}`, {}, async (page) => {
    await show(page, '.ts-time');
    const estimate = await engineEstimate(page);
    const text = await page.locator('.ts-time').locator('xpath=ancestor::figure').innerText();
    const oneGpu = formatDuration(estimate.compute.seconds_on_one_gpu);
    assert.equal(count(text, oneGpu), 1, `“${oneGpu}” once in the figure:\n${text}`);
    assert.equal(await page.locator('.ts-time-point').filter({ visible: true }).count(), 1, 'one point on the axis');
  });
  await withPage(harness.url, {}, async (page) => {
    await page.getByRole('button', { name: STORY_405B }).click();
    await show(page, '.ts-time');
    const estimate = await engineEstimate(page);
    const text = await page.locator('.ts-time').locator('xpath=ancestor::figure').innerText();
    for (const seconds of [estimate.compute.seconds_on_one_gpu, estimate.compute.seconds]) {
      assert.equal(count(text, formatDuration(seconds)), 1, `“${formatDuration(seconds)}” once in the figure:\n${text}`);
    }
  });
});

test('the time caption names the marks the axis draws, a week and a month apart included', async () => {
  // The 70B model on one GPU for a billion tokens: about two weeks, so the axis runs from about a
  // day to about four months and its only marks are 1 week and 1 month (a factor of 4.3 apart).
  const scenario = '{"training":{"tokens":1e9},"parallel":{"gpus":1}}';
  await withPage(`${harness.url}#s=${encodeURIComponent(scenario)}`, {}, async (page) => {
    await show(page, '.ts-time');
    const log = Math.log10((await engineEstimate(page)).compute.seconds);
    assert.ok(log > 5.6 && log < 6.4, `the scenario takes about 10^6 s, got 10^${log.toFixed(2)}`);
    const caption = (await page.locator('.ts-time').locator('xpath=ancestor::figure/figcaption').innerText()).trim();
    assert.equal(caption, 'Time on a logarithmic scale, where equal distances are equal factors; the dotted lines mark 1 week and 1 month.');
    assert.equal(await page.locator('.ts-time-grid').filter({ visible: true }).count(), 2, 'two grid lines, as the caption says');
  });
});

/** Share of an element's pixels darker than a quarter of white, and whether each given point (element coordinates) is dark. */
async function darkness(page, selector, probes) {
  const png = await page.locator(selector).first().screenshot();
  const box = await page.locator(selector).first().boundingBox();
  const blank = await page.context().newPage();
  try {
    return await blank.evaluate(async ({ base64, points }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const context = canvas.getContext('2d');
      context.drawImage(bitmap, 0, 0);
      const { data, width, height } = context.getImageData(0, 0, bitmap.width, bitmap.height);
      const dark = (x, y) => {
        const i = (y * width + x) * 4;
        return (0.2126 * data[i] + 0.7152 * data[i + 1] + 0.0722 * data[i + 2]) / 255 < 0.25;
      };
      let darkPixels = 0;
      for (let y = 0; y < height; y += 1) for (let x = 0; x < width; x += 1) if (dark(x, y)) darkPixels += 1;
      return { share: darkPixels / (width * height), probes: points.map(([x, y]) => dark(Math.round(x), Math.round(y))) };
    }, { base64: png.toString('base64'), points: probes.map(([x, y]) => [x - box.x, y - box.y]) });
  } finally {
    await blank.close();
  }
}

for (const [name, address, story] of [['64 GPUs (the docs’ example)', SHARDED_64, null], ['16,384 GPUs (Llama 3 405B)', '', STORY_405B]]) {
  for (const width of [320, 360, 1280]) {
    test(`the sharding bar at ${name}, ${width} px, stays light and shows GPU 1’s slice`, async () => {
      await withPage(`${harness.url}${address}`, { viewport: { width, height: 900 } }, async (page) => {
        if (story) await page.getByRole('button', { name: story }).click();
        await show(page, '.ts-shard-track');
        const slices = await page.evaluate(() => [...document.querySelectorAll('.ts-shard-mine')]
          .filter((mine) => mine.getClientRects().length > 0)
          .map((mine) => {
            const r = mine.getBoundingClientRect();
            return { key: mine.parentElement.className, width: r.width, centre: [r.left + r.width / 2, r.top + r.height / 2] };
          }));
        assert.ok(slices.length >= 3, `the sharded components each show GPU 1’s slice, got ${slices.length}`);
        const measured = await darkness(page, '.ts-shard-track', slices.map((slice) => slice.centre));
        // Only the slices' outlines are dark; dividers packed a pixel or two apart made it mostly black.
        assert.ok(measured.share < 0.12, `${(measured.share * 100).toFixed(1)}% of the bar is near black`);
        for (const slice of slices) assert.ok(slice.width >= 6, `${slice.key}: GPU 1’s slice is ${slice.width.toFixed(1)} px wide`);
        measured.probes.forEach((isDark, index) => assert.equal(isDark, false, `${slices[index].key}: GPU 1’s slice shows its colour, not black`));
      });
    });
  }
}

for (const width of [320, 360]) {
  test(`at ${width} px the Run and Train legends each keep a heading above their own list`, async () => {
    await withPage(harness.url, { viewport: { width, height: 900 } }, async (page) => {
      await show(page, '.ts-legends');
      const legends = await page.evaluate(() => [...document.querySelectorAll('.ts-legends .ts-legend')].map((list) => {
        const title = document.getElementById(list.getAttribute('aria-labelledby') ?? '');
        const titleBox = title?.getBoundingClientRect();
        return {
          title: title?.textContent ?? null,
          titleShown: Boolean(titleBox && titleBox.height > 0 && titleBox.bottom <= list.getBoundingClientRect().top + 0.5),
          rows: [...list.querySelectorAll('.ts-legend-name')].filter((name) => name.getClientRects().length > 0).map((name) => name.textContent),
        };
      }));
      assert.equal(legends.length, 2);
      assert.deepEqual(legends.map((legend) => legend.title), ['To run it', 'To train it']);
      for (const legend of legends) assert.ok(legend.titleShown, `“${legend.title}” is shown above its own list`);
      assert.ok(legends.every((legend) => legend.rows.includes('Weights')), 'each list has its own Weights row, under its own heading');
    });
  });

  test(`at ${width} px every GPU choice fits the closed select`, async () => {
    await withPage(harness.url, { viewport: { width, height: 900 } }, async (page) => {
      await show(page, '[data-field="hardware.gpu"] select');
      const tooWide = await page.evaluate(() => {
        const select = document.querySelector('[data-field="hardware.gpu"] select');
        const style = getComputedStyle(select);
        const context = document.createElement('canvas').getContext('2d');
        context.font = style.font;
        // The closed select's text box: its content box less the drop-down arrow (about 20 px in Chromium).
        const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 24;
        return [...select.options].filter((option) => context.measureText(option.text).width > room)
          .map((option) => `${option.text} (${context.measureText(option.text).width.toFixed(0)} of ${room.toFixed(0)} px)`);
      });
      assert.deepEqual(tooWide, []);
      const specs = await page.locator('[data-figure="gpu-specs"]').innerText();
      // The H100's 81,559 MiB as the driver reports them, written in decimal GB by the engine.
      assert.match(specs, /85\.5 GB .*989 TFLOP\/s/, 'the chosen GPU’s memory and peak are shown under the select');
    });
  });

  test(`at ${width} px the quiz’s current-question ring lies inside every box that clips it`, async () => {
    await withPage(harness.url, { viewport: { width, height: 900 } }, async (page) => {
      await show(page, '.ts-quiz-step-current');
      const clipped = await page.evaluate(() => {
        const step = document.querySelector('.ts-quiz-step-current');
        const ring = Math.max(0, ...(getComputedStyle(step).boxShadow.match(/-?\d+(\.\d+)?px/g) ?? []).map(parseFloat));
        const r = step.getBoundingClientRect();
        const problems = [];
        for (let element = step.parentElement; element; element = element.parentElement) {
          const style = getComputedStyle(element);
          // content-visibility: auto clips paint at the box's edges, as overflow and paint containment do.
          const clips = style.overflowX !== 'visible' || style.contentVisibility === 'auto' || /paint|strict|content/.test(style.contain);
          if (!clips) continue;
          const box = element.getBoundingClientRect();
          if (r.left - ring < box.left - 0.5 || r.right + ring > box.right + 0.5) {
            problems.push(`${element.className}: ring ${(r.left - ring).toFixed(1)}–${(r.right + ring).toFixed(1)}, box ${box.left.toFixed(1)}–${box.right.toFixed(1)}`);
          }
        }
        return { ring, problems };
      });
      assert.ok(clipped.ring > 0, 'the current step has a ring');
      assert.deepEqual(clipped.problems, []);
    });
  });
}

// Issue 23: the layout figure (web/src/figures/layout.ts) and "load the run as it was".
const RUNS = ['deepseek-v3/pretraining', 'llama3-405b/long-context-128k'];
const presets = JSON.parse(engineModule.presets());
const publishedRun = (id) => {
  const [model, run] = id.split('/');
  return presets.find((preset) => preset.id === model).runs.find((entry) => entry.id === run);
};

/** Each layout row's count as the figure states it, and anything in the figure wider than its box. */
function layoutOnScreen(page) {
  return page.evaluate(() => {
    const figure = document.querySelector('.ts-layout-figure');
    const box = figure.getBoundingClientRect();
    const shown = [...figure.querySelectorAll('.ts-layout-row')].filter((row) => row.getClientRects().length > 0);
    const outside = [...figure.querySelectorAll('*')]
      .filter((element) => element.getClientRects().length > 0)
      .map((element) => ({ text: element.textContent.slice(0, 40), rect: element.getBoundingClientRect() }))
      .filter(({ rect }) => rect.left < box.left - 0.5 || rect.right > box.right + 0.5)
      .map(({ text }) => text);
    return {
      gpus: Number(figure.querySelector('[data-figure="layout-gpus"]').getAttribute('data-value')),
      rows: Object.fromEntries(shown.map((row) => [row.getAttribute('data-dimension'), Number(row.querySelector('.ts-layout-count').getAttribute('data-value'))])),
      outside,
    };
  });
}

/** The rows the engine's estimate says the figure must show: data always, the others when above 1. */
function expectedRows(estimate) {
  const { parallel } = estimate.scenario;
  const rows = { tensor: parallel.tensor, context: parallel.context, pipeline: parallel.pipeline, expert: parallel.expert };
  const shown = Object.fromEntries(Object.entries(rows).filter(([, count]) => count > 1));
  return { ...shown, data: estimate.training.data_parallel };
}

for (const width of [320, 360, 1280]) {
  for (const colorScheme of ['light', 'dark']) {
    test(`at ${width} px (${colorScheme}) the layout figure states the engine's degrees for the default scenario and each published run, within its box`, async () => {
      await withPage(harness.url, { viewport: { width, height: 900 }, colorScheme }, async (page) => {
        await show(page, '.ts-layout-figure');
        for (const run of [null, ...RUNS]) {
          if (run) {
            await page.locator(`[data-run="${run}"]`).click();
            await page.waitForFunction((id) => document.querySelector(`.ts-run[data-run="${id}"]`)?.getAttribute('aria-pressed') === 'true', run);
            await show(page, '.ts-layout-figure');
          }
          const estimate = await engineEstimate(page);
          const onScreen = await layoutOnScreen(page);
          assert.equal(onScreen.gpus, estimate.scenario.parallel.gpus, `${run ?? 'default'}: the GPUs are the scenario's`);
          assert.deepEqual(onScreen.rows, expectedRows(estimate), `${run ?? 'default'}: one row per degree in use, with the engine's count`);
          assert.deepEqual(onScreen.outside, [], `${run ?? 'default'}: nothing leaves the figure`);
          if (run) {
            const published = publishedRun(run);
            assert.equal(estimate.scenario.parallel.gpus, published.gpus, 'the run loads with its published GPUs');
            assert.equal(onScreen.rows.data, published.data, 'and its published data-parallel degree');
            const source = await page.locator('.ts-run-source').innerText();
            assert.ok(source.includes(published.source), 'the run on screen is named with its source');
            // The address is written once input settles (docs/page.md): wait for it, then read the run back from it.
            await page.waitForFunction((model) => decodeURIComponent(location.hash).includes(`"preset":"${model}"`), run.split('/')[0]);
            const kept = await page.evaluate(() => JSON.parse(decodeURIComponent(location.hash.slice(3))));
            assert.equal(kept.parallel?.gpus, published.gpus, 'the address keeps the run');
          }
        }
      });
    });
  }
}

for (const language of ['de', 'es']) {
  test(`in ${language} at 320 px the layout figure speaks the language and stays within its box`, async () => {
    await withPage(`${harness.url}?lang=${language}`, { viewport: { width: 320, height: 900 } }, async (page) => {
      await show(page, '.ts-layout-figure');
      await page.locator(`[data-run="${RUNS[0]}"]`).click();
      await show(page, '.ts-layout-figure');
      const onScreen = await layoutOnScreen(page);
      assert.deepEqual(onScreen.outside, []);
      const names = await page.locator('.ts-layout-row:visible .ts-layout-name').allInnerTexts();
      assert.ok(!names.includes('Data parallel copies') && names.length > 0, `the row names are in ${language}: ${names.join(', ')}`);
    });
  });
}

test('context and expert parallel degrees are scenario fields: a refused layout names the field under its control', async () => {
  const eightGpus = `#s=${encodeURIComponent('{"parallel":{"gpus":8}}')}`;
  await withPage(harness.url + eightGpus, { viewport: { width: 1280, height: 900 } }, async (page) => {
    await show(page, '.ts-layout-figure');
    await page.locator('details.ts-deeper:has([data-field="parallel.expert"]) > summary').click();
    await page.locator('[data-field="parallel.expert"] select').selectOption('2');
    const error = page.locator('[data-field="parallel.expert"] .ts-field-error');
    await error.waitFor({ state: 'visible' });
    const engineErrors = JSON.parse(engineModule.estimate(JSON.stringify({ parallel: { gpus: 8, expert: 2 } }))).errors
      .filter((entry) => entry.field === 'parallel.expert');
    assert.ok(engineErrors.length > 0, 'the engine refuses expert parallelism for a dense model');
    const shown = await error.innerText();
    assert.ok(engineErrors.some((entry) => shown.startsWith(entry.message)), `the control shows the engine's message: ${shown}`);
    await page.locator('[data-field="parallel.expert"] select').selectOption('1');
    await page.locator('[data-field="parallel.context"] select').selectOption('2');
    await page.waitForFunction(() => decodeURIComponent(location.hash).includes('"context":2'));
    assert.equal(await figure(page, 'layout-context').getAttribute('data-value'), '2');
    const estimate = await engineEstimate(page);
    assert.equal(await figure(page, 'layout-data').getAttribute('data-value'), String(estimate.training.data_parallel));
  });
});
