// The stylesheets keep to one type scale (web/styles.css, --ts-size-*): every new font size is a
// font lookup on the first frame that shows it (bench/README.md, "What the traces showed"), so a
// size written in place of a token is a regression this test names.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const webDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web');
const stylesheets = { 'styles.css': '--ts-size', 'quiz.css': '--ts-quiz-size' };
const read = (name) => readFileSync(join(webDir, name), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');

/** Every font-size value, and every size inside a font shorthand, with its line. */
function fontSizes(css) {
  const found = [];
  css.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(/font-size\s*:\s*([^;}]+)/g)) found.push({ line: index + 1, value: match[1].trim() });
    for (const match of line.matchAll(/(?<![-\w])font\s*:\s*([^;}]+)/g)) {
      if (match[1].trim() !== 'inherit') found.push({ line: index + 1, value: `font: ${match[1].trim()}` });
    }
  });
  return found;
}

for (const [name, prefix] of Object.entries(stylesheets)) {
  test(`${name}: every font size is a step of the type scale`, () => {
    const token = new RegExp(`^var\\(${prefix}-(xs|sm|md|lg|xl|xxl)\\)$`);
    const strays = fontSizes(read(name)).filter(({ value }) => !token.test(value));
    assert.deepEqual(strays, [], `${name} has sizes outside the scale (use var(${prefix}-…))`);
  });
}

test('the scale has six sizes, each larger than the one before, and the quiz uses the same ones', () => {
  const page = read('styles.css');
  const steps = ['xs', 'sm', 'md', 'lg', 'xl', 'xxl'];
  const sizes = steps.map((step) => {
    const match = new RegExp(`--ts-size-${step}:\\s*([\\d.]+)rem;`).exec(page);
    assert.ok(match, `styles.css defines --ts-size-${step} in rem`);
    return Number(match[1]);
  });
  sizes
    .slice(1)
    .forEach((size, index) =>
      assert.ok(size > sizes[index], `--ts-size-${steps[index + 1]} (${size}rem) is larger than --ts-size-${steps[index]}`),
    );
  const quiz = read('quiz.css');
  steps.forEach((step, index) => {
    assert.match(
      quiz,
      new RegExp(`--ts-quiz-size-${step}:\\s*var\\(--ts-size-${step},\\s*${sizes[index]}rem\\);`),
      `quiz.css takes --ts-size-${step} from the page, with the same ${sizes[index]}rem when it stands alone`,
    );
  });
});
