// Sections are components: built once, updated in place. A slider step replaces no node, the
// page's node count stays flat however long the learner drags, the address is written once
// the input settles, and the quiz waits until it is needed.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openDeeperParts, openPage, startHarness, withOpenPage } from './harness.mjs';

let harness;
before(async () => { harness = await startHarness(); });
after(async () => { await harness?.close(); });

function withPage(address, options, body) {
  return withOpenPage(harness.browser, address, options, body);
}

/** Scrolls through the page so every section near the viewport is built, then waits for none pending. */
async function buildEverySection(page) {
  await openDeeperParts(page);
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.waitForFunction(() => document.querySelector('.ts-section-pending') === null);
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** Moves a slider (by its field) to a position, as a learner's drag does: one input event. */
function stepScript() {
  return (field, position) => {
    const range = document.querySelector(`[data-field="${field}"] input[type=range]`);
    range.value = String(position);
    range.dispatchEvent(new Event('input', { bubbles: true }));
  };
}

test('the node count stays flat over 1,000 slider steps', async () => {
  await withPage(harness.url, {}, async (page) => {
    await buildEverySection(page);
    const counts = await page.evaluate((step) => {
      const move = new Function(`return (${step})`)();
      const count = () => {
        const walker = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
        let nodes = 0;
        while (walker.nextNode()) nodes += 1;
        return nodes;
      };
      const fields = ['training.sequence', 'parallel.gpus', 'training.micro_batch', 'model.params'];
      // One round first: some parts (a "try this" button, a note) show for some scenarios only.
      for (let index = 0; index < 40; index += 1) move(fields[index % fields.length], index % 11);
      const before = count();
      for (let index = 0; index < 1000; index += 1) move(fields[index % fields.length], (index * 7) % 11);
      for (let index = 0; index < 40; index += 1) move(fields[index % fields.length], index % 11);
      return { before, after: count() };
    }, stepScript().toString());
    assert.equal(counts.after, counts.before, `nodes before ${counts.before}, after 1,000 steps ${counts.after}`);
  });
});

test('a slider step changes text, attributes and sizes but replaces no node in any section', async () => {
  await withPage(harness.url, {}, async (page) => {
    await buildEverySection(page);
    const records = await page.evaluate((step) => {
      const move = new Function(`return (${step})`)();
      move('training.sequence', 3);
      const observer = new MutationObserver(() => {});
      observer.observe(document.querySelector('.ts-root'), { childList: true, subtree: true, characterData: true, attributes: true });
      move('training.sequence', 6);
      move('parallel.gpus', 4);
      const seen = observer.takeRecords();
      observer.disconnect();
      const inside = (node, selector) => (node.nodeType === 1 ? node : node.parentElement)?.closest(selector);
      return {
        // The engine's notes are a list redrawn only when the notes themselves change.
        childList: seen.filter((r) => r.type === 'childList' && !inside(r.target, '.ts-notes')).map((r) => `${r.target.nodeName}.${r.target.className}`),
        changed: seen.filter((r) => r.type !== 'childList').length,
      };
    }, stepScript().toString());
    assert.deepEqual(records.childList, [], 'no node added or removed');
    assert.ok(records.changed > 0, 'the step did change the figures in place');
  });
});

test('the address is written once the input settles, and back and forward restore the scenario', async () => {
  await withPage(harness.url, {}, async (page) => {
    await buildEverySection(page);
    const hashDuringStep = await page.evaluate((step) => {
      const move = new Function(`return (${step})`)();
      move('parallel.gpus', 5);
      return location.hash;
    }, stepScript().toString());
    assert.equal(hashDuringStep, '', 'not written during the step');
    await page.waitForFunction(() => location.hash.startsWith('#s='));
    const written = await page.evaluate(() => JSON.parse(decodeURIComponent(location.hash.slice(3))));
    assert.equal(written.parallel.gpus, 32);

    const linkA = `#s=${encodeURIComponent(JSON.stringify({ parallel: { gpus: 64, zero_stage: 3 } }))}`;
    const linkB = `#s=${encodeURIComponent(JSON.stringify({ parallel: { gpus: 512, zero_stage: 3 } }))}`;
    await page.evaluate((hash) => { location.hash = hash; }, linkA);
    await page.waitForFunction(() => window.trainscope.scenario().parallel.gpus === 64);
    await page.evaluate((hash) => { location.hash = hash; }, linkB);
    await page.waitForFunction(() => window.trainscope.scenario().parallel.gpus === 512);
    await page.goBack();
    await page.waitForFunction(() => window.trainscope.scenario().parallel.gpus === 64);
    await page.goForward();
    await page.waitForFunction(() => window.trainscope.scenario().parallel.gpus === 512);
  });
});

test('a plain anchor such as #foo is left alone and reported as nothing', async () => {
  await withPage(`${harness.url}#foo`, {}, async (page) => {
    const state = await page.evaluate(() => ({
      hash: location.hash,
      notices: [...document.querySelectorAll('.ts-notice')].filter((notice) => !notice.hidden).length,
      overrides: window.trainscope.overrides(),
    }));
    assert.equal(state.hash, '#foo');
    assert.equal(state.notices, 0, 'no notice about a broken link');
    assert.deepEqual(state.overrides, {});
  });
});

test('the quiz is not prepared before the first figure paints, and is prepared once near', async () => {
  const { page, context, problems } = await openPage(harness.browser, 'about:blank', { readySelector: 'body' });
  try {
    await page.addInitScript(() => {
      window.quizAtReady = null;
      new MutationObserver((_records, observer) => {
        if (!document.querySelector('[data-ts-ready]')) return;
        window.quizAtReady = document.querySelectorAll('.ts-quiz-item').length;
        observer.disconnect();
      }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-ts-ready'] });
    });
    await page.goto(harness.url);
    await page.waitForSelector('[data-ts-ready]');
    assert.equal(await page.evaluate(() => window.quizAtReady), 0, 'no quiz item exists when the first figure is ready');
    await page.locator('.ts-quiz').scrollIntoViewIfNeeded();
    await page.waitForSelector('.ts-quiz-item');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a section far off screen catches up when the browser is idle, and when scrolled to', async () => {
  await withPage(harness.url, {}, async (page) => {
    await buildEverySection(page);
    // The lesson's time part sits far below the top of the page, where the learner is.
    const farText = () => document.querySelector('[data-ts-section="compute-time"]').textContent;
    const moveAndRead = ([step, read, position]) => {
      const move = new Function(`return (${step})`)();
      const text = new Function(`return (${read})`)();
      move('parallel.gpus', position);
      return text();
    };
    const before = await page.evaluate(farText);
    const sameTask = await page.evaluate(moveAndRead, [stepScript().toString(), farText.toString(), 9]);
    assert.equal(sameTask, before, 'the off-screen section waited: the step cost only what is on screen');
    await page.waitForFunction((old) => document.querySelector('[data-ts-section="compute-time"]').textContent !== old, before, { timeout: 2000 });

    const settled = await page.evaluate(farText);
    await page.evaluate(moveAndRead, [stepScript().toString(), farText.toString(), 3]);
    await page.locator('[data-ts-section="compute-time"]').scrollIntoViewIfNeeded();
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    assert.notEqual(await page.evaluate(farText), settled, 'scrolled into view, it shows the new GPU count\'s time');
  });
});
