// The page's first view (web/src/first-view/first-view.ts, docs/page.md): the built page is opened in headless
// Chromium, the widget draws the default scenario with the real engine, and its opening sections
// (the header and the lesson's first part: its title, sentence and run-vs-train figures) are saved into the
// page's HTML. They paint with the HTML, before the engine's script runs, and the widget replaces
// them once it is built. Nothing in them is written by hand, so they cannot drift from the engine:
// every build draws them again, and tests/browser/first-view.test.mjs compares them with the widget.
import { pathToFileURL } from 'node:url';

/** Where the first view ends: the lesson's first part keeps only its title, sentence and headline figures. */
const KEPT_MEMORY_PARTS = '.ts-section-title, .ts-prose, .ts-headline';
/** The lesson's first part, whose figure the first screen shows (web/src/widget/parts-plan.ts). */
const FIRST_PART = 'run-vs-train';

/** Runs in the built page once the widget is ready: the first view's markup. */
function extractFirstView({ attribute, keptMemoryParts, firstPart }) {
  const live = document.querySelector('.ts-root[data-ts-ready]');
  // Form state lives in properties, which cloning does not carry into the markup: write it as attributes.
  for (const input of live.querySelectorAll('input')) {
    if (input.type === 'checkbox' || input.type === 'radio') input.toggleAttribute('checked', input.checked);
    else input.setAttribute('value', input.value);
  }
  for (const select of live.querySelectorAll('select')) {
    for (const option of select.options) option.toggleAttribute('selected', option.selected);
  }
  const view = live.cloneNode(true);
  for (const child of [...view.children]) {
    if (child.matches('header')) continue;
    if (child.getAttribute('data-ts-section') === firstPart) {
      for (const part of [...child.children]) if (!part.matches(keptMemoryParts)) part.remove();
      continue;
    }
    child.remove();
  }
  // What is not drawn is not kept: hidden elements (empty error lines) go, and so do a drop-down's
  // other options (an inert drop-down never opens; its width comes from the stylesheet).
  for (const option of view.querySelectorAll('select option:not([selected])')) option.remove();
  for (const node of view.querySelectorAll('[hidden]')) node.remove();
  // The first view is inert and hidden from assistive technology, and it sits beside the widget
  // while that builds: no ids (no duplicates), no references to them, no live regions, no form
  // names, and none of what only a reader, a pointer or a keyboard uses (labels, tooltips, input
  // hints). States that the stylesheet draws (aria-pressed, aria-invalid) stay. Only the ids its
  // drawings paint with (an SVG pattern's url(#id)) stay, renamed.
  const all = [view, ...view.querySelectorAll('*')];
  const painted = new Set();
  for (const node of all) {
    for (const { name, value } of [...node.attributes]) {
      for (const [, id] of value.matchAll(/url\(#([^)]+)\)/g)) {
        painted.add(id);
        node.setAttribute(name, node.getAttribute(name).replace(`url(#${id})`, `url(#${id}-first-view)`));
      }
    }
  }
  for (const node of all) {
    if (painted.has(node.id)) node.id = `${node.id}-first-view`;
    else node.removeAttribute('id');
    for (const name of ['for', 'name', 'role', 'title', 'inputmode', 'autocomplete', 'spellcheck', 'focusable', 'aria-label', 'aria-valuetext',
      'aria-hidden', 'aria-describedby', 'aria-labelledby', 'aria-controls', 'aria-live', 'aria-atomic', 'aria-busy', 'data-ts-ready', 'data-story']) {
      node.removeAttribute(name);
    }
  }
  view.setAttribute(attribute, '');
  view.setAttribute('inert', '');
  return view.outerHTML;
}

/**
 * Draws the first view of the built page at `pageFile` in headless Chromium (never downloaded: the
 * machine's, as the tests use). Returns its markup.
 */
export async function prerenderFirstView(pageFile, { attribute, executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', width = 1280 } = {}) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: 'light', reducedMotion: 'reduce' });
    const problems = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()); });
    await page.goto(pathToFileURL(pageFile).href);
    await page.waitForSelector('.ts-root[data-ts-ready]', { timeout: 30000 });
    if (problems.length > 0) throw new Error(`the page reported problems while drawing its first view: ${problems.join('; ')}`);
    return await page.evaluate(extractFirstView, { attribute, keptMemoryParts: KEPT_MEMORY_PARTS, firstPart: FIRST_PART });
  } finally {
    await browser.close();
  }
}

/**
 * The page's HTML with its first view: the markup at the start of <main data-trainscope>, and the
 * head's guard (a classic inline script) allowed by its hash in the Content-Security-Policy.
 */
export function withFirstView(html, markup, guard, guardHash) {
  if (/<\/script/i.test(guard)) throw new Error('web: the first view\'s guard contains "</script"');
  const withGuard = html
    .replace(/script-src 'self' 'wasm-unsafe-eval'/, () => `script-src 'self' 'wasm-unsafe-eval' ${guardHash}`)
    .replace(/<link rel="stylesheet" href="trainscope\.css">/, (link) => `<script>${guard}</script>\n${link}`);
  const withMarkup = withGuard.replace(/(<main [^>]*data-trainscope[^>]*>\n?)/, (main) => `${main}${markup}\n`);
  if (!withGuard.includes(guardHash) || withMarkup === withGuard) throw new Error('web: index.html has no place for the first view (its CSP or <main data-trainscope>)');
  return withMarkup;
}
