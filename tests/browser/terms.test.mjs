// Words at first sight (issue 31, web/src/figures/term.ts): a term is a button that opens the
// engine's definition on a tap, Enter or a click, tells a screen reader (aria-expanded, and the
// definition as its description), closes on Escape, on leaving it and on a tap elsewhere, stays
// inside a 320 px viewport, works in a shadow root under the documented strict CSP, speaks the
// widget's language, and leaves axe-core nothing to find.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { serveDirectory } from '../../web/serve.mjs';
import { distDir, openPage, recordConsole, repoRoot, startHarness } from './harness.mjs';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const docs = readFileSync(join(repoRoot, 'docs', 'embedding.md'), 'utf8');
const DOCUMENTED_CSP = /runs under `(default-src[^`]+)`/.exec(docs)?.[1];
const germanGlossary = JSON.parse(readFileSync(join(repoRoot, 'i18n', 'de', 'engine-glossary.json'), 'utf8'));

let harness;
before(async () => {
  harness = await startHarness();
});
after(async () => {
  await harness?.close();
});

/** The term button `id` in section `section`, once the section is built (sections below the fold wait until near). */
/**
 * Full activation checkpointing, chosen in the lesson's part: only with recomputation does the model
 * FLOPs utilisation differ from the utilisation set, so only then does the time part show its card.
 */
async function recomputeFully(page) {
  await page.locator('[data-ts-section="sharding-checkpointing"] [data-field="training.recompute"] input[value="full"]').check();
  await page.waitForFunction(() => window.trainscope.scenario().training?.recompute === 'full');
}

async function termIn(page, section, id) {
  // The section may still be a pending slot, or be rebuilt once its language pack arrives: scroll to it until its terms are there.
  await page.waitForFunction(
    ([name, term]) => {
      const slot = document.querySelector(`[data-ts-section="${name}"]`);
      slot?.scrollIntoView({ block: 'center' });
      return slot?.querySelector(`.ts-term-button[data-term="${term}"]`) != null;
    },
    [section, id],
    { timeout: 15000, polling: 250 },
  );
  const button = page.locator(`[data-ts-section="${section}"] .ts-term-button[data-term="${id}"]`).first();
  await button.scrollIntoViewIfNeeded();
  return button;
}

async function bubbleOf(page, button) {
  return page.locator(`[id="${await button.getAttribute('aria-controls')}"]`);
}

function engineTerm(page, id) {
  return page.evaluate((termId) => JSON.parse(window.trainscope.engine.module.glossary()).terms.find((term) => term.id === termId), id);
}

test('a tap opens the engine’s definition, Escape, leaving and a tap elsewhere close it, and a screen reader hears it', async () => {
  const context = await harness.browser.newContext({ viewport: { width: 390, height: 800 }, hasTouch: true, isMobile: true });
  const { page, problems } = await openPage(harness.browser, harness.url, { context });
  try {
    const button = await termIn(page, 'sharding', 'fsdp');
    const bubble = await bubbleOf(page, button);
    const term = await engineTerm(page, 'fsdp');
    assert.equal(await button.textContent(), 'FSDP');
    assert.equal(await button.getAttribute('aria-expanded'), 'false');
    assert.equal(await button.getAttribute('aria-describedby'), await button.getAttribute('aria-controls'), 'the definition describes the button');
    assert.equal(await bubble.isVisible(), false);
    // The description is there before it is opened: a screen reader reads it on focus.
    assert.match(await bubble.textContent(), new RegExp(term.definition.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));

    await button.tap();
    assert.equal(await button.getAttribute('aria-expanded'), 'true');
    assert.equal(await bubble.isVisible(), true);
    assert.ok((await bubble.innerText()).includes('Fully Sharded Data Parallel'));
    assert.ok((await bubble.innerText()).includes(term.source), 'the source shows');

    // A tap elsewhere closes it.
    await page.locator('[data-ts-section="sharding"] .ts-section-title').tap();
    assert.equal(await bubble.isVisible(), false);
    assert.equal(await button.getAttribute('aria-expanded'), 'false');

    // Enter opens it from the keyboard, Escape closes it and leaves the focus on the term.
    await button.focus();
    await page.keyboard.press('Enter');
    assert.equal(await bubble.isVisible(), true);
    await page.keyboard.press('Escape');
    assert.equal(await bubble.isVisible(), false);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-term')), 'fsdp');

    // Leaving it (Tab) closes it.
    await page.keyboard.press('Space');
    assert.equal(await bubble.isVisible(), true);
    await page.keyboard.press('Tab');
    assert.equal(await bubble.isVisible(), false);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a term inside a control’s label opens its definition and leaves the control as it was', async () => {
  const { page, context, problems } = await openPage(harness.browser, harness.url);
  try {
    const button = await termIn(page, 'activations', 'global_batch');
    const field = page.locator('[data-ts-section="activations"] [data-field="training.global_batch"] input[type="range"]');
    const before = await field.inputValue();
    await button.click();
    assert.equal(await (await bubbleOf(page, button)).isVisible(), true);
    assert.equal(await field.inputValue(), before);
    assert.notEqual(await page.evaluate(() => document.activeElement?.type), 'range', 'the label did not hand the click to its slider');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the fit cards’ letters, the layout’s rows, the labels’ terms and the radios’ choices are marked', async () => {
  const { page, context, problems } = await openPage(harness.browser, harness.url);
  try {
    for (const [section, id, shown] of [
      ['fit', 'tensor_parallel', 'TP'],
      ['fit', 'pipeline_parallel', 'PP'],
      ['fit', 'data_parallel', 'DP'],
      ['fit', 'qlora', 'QLoRA'],
      ['activations', 'micro_batch', 'Micro-batch'],
      ['activations', 'global_batch', 'Global batch'],
      ['sharding', 'shard_grad_op', 'SHARD_GRAD_OP'],
      ['sharding', 'one_f_one_b', '1F1B'],
      ['sharding', 'zero_2', 'Stage 2'],
      ['step', 'selective_recompute', 'Selective'],
      ['sharding', 'zero', 'ZeRO'],
      ['step', 'activation_checkpointing', 'Checkpointing'],
      ['time', 'mfu', 'Model FLOPs utilisation'],
    ]) {
      if (id === 'mfu') await recomputeFully(page);
      const button = await termIn(page, section, id);
      assert.equal((await button.textContent()).trim(), shown, `${section} ${id}`);
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('at 320 px every open definition stays inside the viewport, in light and dark', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const context = await harness.browser.newContext({ viewport: { width: 320, height: 700 }, hasTouch: true, colorScheme });
    const { page, problems } = await openPage(harness.browser, harness.url, { context });
    try {
      await recomputeFully(page);
      for (const section of ['activations', 'sharding', 'time', 'fit']) await termIn(page, section, section === 'time' ? 'mfu' : 'micro_batch');
      await page.evaluate(() => document.querySelectorAll('details').forEach((details) => (details.open = true)));
      const count = await page.locator('.ts-term-button').count();
      assert.ok(count >= 20, `${count} terms`);
      for (let index = 0; index < count; index += 1) {
        const button = page.locator('.ts-term-button').nth(index);
        if (!(await button.isVisible())) continue;
        await button.scrollIntoViewIfNeeded();
        await button.tap();
        const bubble = await bubbleOf(page, button);
        const box = await bubble.boundingBox();
        const id = await button.getAttribute('data-term');
        assert.ok(box && box.x >= 0 && box.x + box.width <= 320, `${id}: the bubble spans ${box?.x}…${box && box.x + box.width} px`);
        await button.tap();
        assert.equal(await bubble.isVisible(), false, `${id}: a second tap closes it`);
      }
      const colours = await page.evaluate(() => {
        const bubble = document.querySelector('.ts-term-bubble');
        const style = getComputedStyle(bubble);
        return { background: style.backgroundColor, color: style.color };
      });
      const light = (rgb) => rgb.match(/\d+/g).slice(0, 3).map(Number).reduce((sum, value) => sum + value, 0) > 382;
      assert.equal(light(colours.background), colorScheme === 'light', `${colorScheme}: background ${colours.background}`);
      assert.equal(light(colours.color), colorScheme === 'dark', `${colorScheme}: text ${colours.color}`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test('axe-core finds nothing on the terms, closed and open', async () => {
  const { page, context, problems } = await openPage(harness.browser, harness.url, { bypassCSP: true });
  try {
    const button = await termIn(page, 'sharding', 'data_parallel');
    await termIn(page, 'fit', 'tensor_parallel');
    await page.addStyleTag({ content: '.ts-section { content-visibility: visible !important; }' });
    await page.addScriptTag({ content: axeSource });
    const axe = () =>
      page.evaluate(async () => {
        const results = await window.axe.run(document, { resultTypes: ['violations'] });
        return results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
      });
    assert.deepEqual(await axe(), []);
    await button.click();
    assert.equal(await (await bubbleOf(page, button)).isVisible(), true);
    assert.deepEqual(await axe(), []);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('German: the terms are the German words and the definitions the engine’s German', async () => {
  const { page, context, problems } = await openPage(harness.browser, `${harness.url}index.html?lang=de`);
  try {
    const button = await termIn(page, 'sharding', 'data_parallel');
    assert.equal((await button.textContent()).trim(), 'Datenparallelität');
    await button.click();
    assert.ok((await (await bubbleOf(page, button)).innerText()).includes(germanGlossary['glossary.data_parallel.definition']));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('in the element’s shadow root, under the documented strict CSP, a term opens and closes with a clean console', async (t) => {
  assert.ok(DOCUMENTED_CSP, 'docs/embedding.md states the policy');
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course page</title>
<script src="../embed/trainscope-widget.js" defer></script></head><body><h1>Week 3</h1>
<trainscope-widget id="w" sections="layouts"></trainscope-widget></body></html>`;
  const served = await serveDirectory(distDir, 0, {
    headers: { 'content-security-policy': DOCUMENTED_CSP },
    extra: { '/host/terms.html': { type: 'text/html; charset=utf-8', body } },
  });
  const context = await harness.browser.newContext({ viewport: { width: 1000, height: 900 } });
  t.after(async () => {
    await context.close();
    await new Promise((resolve) => served.server.close(resolve));
  });
  const page = await context.newPage();
  const { errors, warnings } = recordConsole(page);
  await page.goto(`${served.url}host/terms.html`);
  const button = page.locator('#w .ts-term-button[data-term="data_parallel"]').first();
  await button.waitFor({ timeout: 20000 });
  await button.scrollIntoViewIfNeeded();
  const bubble = page.locator(`#w [id="${await button.getAttribute('aria-controls')}"]`);
  await button.click();
  assert.equal(await bubble.isVisible(), true);
  assert.equal(await button.getAttribute('aria-expanded'), 'true');
  // A click elsewhere in the widget closes it (the press is seen in the shadow root).
  await page.locator('#w .ts-section-title').first().click();
  assert.equal(await bubble.isVisible(), false);
  await button.focus();
  await page.keyboard.press('Enter');
  assert.equal(await bubble.isVisible(), true);
  await page.keyboard.press('Escape');
  assert.equal(await bubble.isVisible(), false);
  assert.deepEqual([...errors, ...warnings], []);
});
