import { chromium } from 'playwright-core';
import { serveDirectory } from '../web/serve.mjs';
const { server, url } = await serveDirectory('dist', 0);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const scenario = { model: { preset: 'llama3-8b' }, hardware: { gpu: 'rtx-4090' }, parallel: { gpus: 1 }, training: { method: 'qlora', sequence: 8192 } };
for (const lang of ['en', 'de', 'es']) for (const width of [360, 1280]) for (const scheme of (lang === 'en' ? ['light', 'dark'] : ['light'])) {
  const context = await browser.newContext({ viewport: { width, height: width === 360 ? 740 : 800 }, colorScheme: scheme, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(`${url}?lang=${lang}#s=${encodeURIComponent(JSON.stringify(scenario))}`);
  await page.waitForSelector('[data-ts-ready]', { timeout: 30000 });
  await page.evaluate(() => document.querySelectorAll('details.ts-deeper-part').forEach((d) => { d.open = true; }));
  await page.waitForFunction(() => {
    document.querySelector('[data-ts-section="fit"]')?.scrollIntoView({ block: 'start' });
    return document.querySelector('section.ts-fit')?.getAttribute('aria-busy') === 'false';
  }, null, { timeout: 60000 });
  await page.waitForTimeout(500);
  await page.screenshot({ path: `/tmp/shot-fit-top-${lang}-${width}-${scheme}.png` });
  await page.locator('.ts-fit-changes').scrollIntoViewIfNeeded();
  await page.locator('.ts-fit-changes').screenshot({ path: `/tmp/shot-fit-changes-${lang}-${width}-${scheme}.png` });
  await context.close();
}
await browser.close(); server.close(); server.closeAllConnections?.();
