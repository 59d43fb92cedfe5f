// What a learner downloads, checked against the README's budget: 150 KiB gzip -9 for the whole
// page. (Issue 9 asks for 135 KiB, the page's weight before the step simulation; the README's
// "Measured" says where it stands.) Byte counts are deterministic, so this is a test; how fast
// those bytes become a figure is a benchmark (bench/page_bench.mjs).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');
const PAGE_BUDGET_BYTES = 150 * 1024;
const gzipBytes = (...names) => names.reduce((sum, name) => sum + gzipSync(readFileSync(join(dist, name)), { level: 9 }).length, 0);

test('the offline file stays within the page budget', () => {
  const bytes = gzipBytes('trainscope.html');
  assert.ok(bytes <= PAGE_BUDGET_BYTES, `dist/trainscope.html is ${bytes} bytes gzipped, over the ${PAGE_BUDGET_BYTES}-byte budget`);
});

test('the served page (HTML, script, stylesheet) stays within the page budget', () => {
  const bytes = gzipBytes('index.html', 'trainscope.js', 'trainscope.css');
  assert.ok(bytes <= PAGE_BUDGET_BYTES, `dist/index.html with its script and stylesheet is ${bytes} bytes gzipped, over the ${PAGE_BUDGET_BYTES}-byte budget`);
});
