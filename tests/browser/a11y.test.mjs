// Accessibility and looks: axe-core finds no violations in light and dark, at desktop and phone
// widths, with every "why" and "go deeper" open; nothing overflows at 320 px; announcements are
// polite and debounced; screenshots go to test-artifacts/ for a person to look at.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { artifactsDir, openDeeperParts, openPage, startHarness } from './harness.mjs';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let harness;
before(async () => { harness = await startHarness(); });
after(async () => { await harness?.close(); });

async function openAllDetails(page) {
  await page.evaluate(() => document.querySelectorAll('details').forEach((details) => { details.open = true; }));
}

/** Sections off screen skip rendering (content-visibility: auto); full-page screenshots and axe's
 *  contrast checks need every box rendered. */
async function renderEverything(page) {
  await openDeeperParts(page);
  await page.addStyleTag({ content: '.ts-section { content-visibility: visible !important; }' });
}

async function runAxe(page) {
  await renderEverything(page);
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const results = await window.axe.run(document, { resultTypes: ['violations'] });
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.slice(0, 5).map((node) => `${node.target.join(' ')} — ${node.failureSummary}`),
    }));
  });
}

const layouts = [
  { name: 'desktop', viewport: { width: 1280, height: 900 } },
  { name: '360', viewport: { width: 360, height: 780 } },
];

for (const colorScheme of ['light', 'dark']) {
  for (const layout of layouts) {
    test(`axe-core finds no violations (${layout.name}, ${colorScheme}) and a screenshot is saved`, async () => {
      const { page, context, problems } = await openPage(harness.browser, harness.url, { viewport: layout.viewport, colorScheme, bypassCSP: true });
      try {
        await renderEverything(page);
        await page.screenshot({ path: join(artifactsDir, `page-${layout.name}-${colorScheme}.png`), fullPage: true });
        await openAllDetails(page);
        const violations = await runAxe(page);
        assert.deepEqual(violations, []);
        // The 405B scenario too: other numbers, other widths, other states (fits, chips).
        await page.getByRole('button', { name: 'Llama 3 405B as Meta trained it' }).click();
        await page.screenshot({ path: join(artifactsDir, `page-405b-${layout.name}-${colorScheme}.png`), fullPage: true });
        assert.deepEqual(await runAxe(page), []);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }
}

test('nothing overflows sideways at 320 px', async () => {
  const { page, context, problems } = await openPage(harness.browser, harness.url, { viewport: { width: 320, height: 700 }, bypassCSP: true });
  try {
    await openAllDetails(page);
    await renderEverything(page); // an off-screen section's overflow counts only once it is rendered
    for (const story of ['70B: run vs train', 'Llama 3 405B as Meta trained it']) {
      await page.getByRole('button', { name: story }).click();
      const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      assert.ok(widths.scroll <= widths.client, `${story}: page is ${widths.scroll}px wide in a ${widths.client}px viewport`);
    }
    await page.screenshot({ path: join(artifactsDir, 'page-320-light.png'), fullPage: true });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('every control has an accessible name and is reachable from the keyboard', async () => {
  const { page, context } = await openPage(harness.browser, harness.url);
  try {
    await openAllDetails(page);
    const unnamed = await page.evaluate(() => [...document.querySelectorAll('input, select, textarea, button')]
      .filter((element) => {
        const labelled = element.labels?.length > 0 || element.getAttribute('aria-label') || element.getAttribute('aria-labelledby')
          || (element.tagName === 'BUTTON' && element.textContent.trim());
        return !labelled;
      })
      .map((element) => element.outerHTML.slice(0, 120)));
    assert.deepEqual(unnamed, []);
    const unreachable = await page.evaluate(() => [...document.querySelectorAll('input, select, textarea, button')]
      .filter((element) => element.tabIndex < 0 || element.disabled).map((element) => element.outerHTML.slice(0, 120)));
    assert.deepEqual(unreachable, []);
  } finally {
    await context.close();
  }
});

test('results are announced politely, once after the learner pauses', async () => {
  const { page, context } = await openPage(harness.browser, harness.url);
  try {
    await page.evaluate(() => {
      const status = document.querySelector('[role="status"][aria-live="polite"]');
      window.announcements = [];
      new MutationObserver(() => window.announcements.push(status.textContent)).observe(status, { childList: true, characterData: true, subtree: true });
    });
    const slider = page.getByRole('slider', { name: 'GPUs' }).first();
    await slider.focus();
    for (let step = 0; step < 6; step += 1) await slider.press('ArrowRight');
    await page.waitForFunction(() => window.announcements.length > 0, null, { timeout: 5000 });
    await page.waitForTimeout(1200);
    const announcements = await page.evaluate(() => window.announcements);
    assert.equal(announcements.length, 1, `one announcement for six quick steps, got ${JSON.stringify(announcements)}`);
    assert.match(announcements[0], /64 GPUs/);
  } finally {
    await context.close();
  }
});

test('with reduced motion nothing animates', async () => {
  const { page, context } = await openPage(harness.browser, harness.url, { reducedMotion: 'reduce' });
  try {
    await page.getByRole('radio', { name: /Stage 3/ }).first().check();
    const animations = await page.evaluate(() => document.getAnimations().length);
    assert.equal(animations, 0);
  } finally {
    await context.close();
  }
});

test('the GPU slider’s accessible value is the engine’s count of GPUs, singular for one: "1 GPU", "64 GPUs" (issue 24, item 18)', async () => {
  const { page, context, problems } = await openPage(harness.browser, harness.url, { viewport: { width: 1280, height: 900 } });
  try {
    const valueText = async (gpus) => {
      await page.evaluate((count) => window.trainscope.setScenario({ parallel: { gpus: count } }), gpus);
      // Scrolled there without waiting for the section to stand still: sections below it are
      // still being built, which moves it (a fresh clone timed out on Playwright's stability wait).
      await page.locator('[data-ts-section="sharding-checkpointing"]').evaluate((section) => section.scrollIntoView());
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 200))));
      return page.getByRole('slider', { name: 'GPUs', exact: true }).first().getAttribute('aria-valuetext');
    };
    // The engine's own writing of the count (src/engine/text: Figure::gpus, "1 GPU").
    const engine = (count) => page.evaluate((value) => window.trainscope.engine.module.formatQuantity(value, 'gpus', 0), count);
    assert.equal(await valueText(1), await engine(1));
    assert.equal(await valueText(1), '1 GPU');
    assert.equal(await valueText(64), '64 GPUs');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
