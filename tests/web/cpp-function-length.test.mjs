// No C++ function of ours runs past 80 lines (issue 22; the house style: "past ~80 lines it
// is several"). ESLint holds the TypeScript to the same rule; this reads the C++ of src/ (the
// engine, the CLI, the bindings) and names each function that is longer, with its file and line.
// Vendored code (third_party/) is left as its authors wrote it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const MAX_LINES = 80;

function sourceFiles(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(cpp|hpp)$/.test(entry.name) ? [path] : [];
  });
}

/** The text with comments, string and character literals blanked (newlines kept), so braces inside them don't count. */
function codeOnly(text) {
  return text.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\/|R"([^(]*)\([\s\S]*?\)\1"|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g, (match) =>
    match.replace(/[^\n]/g, ' '),
  );
}

/** What an opening brace starts, judged by the code before it since the last `;`, `{` or `}`. */
function opensFunctionBody(head) {
  const words = head.trim();
  if (!words.includes(')')) return false;
  if (/^(namespace|struct|class|union|enum)\b/.test(words) || /\b(struct|class|enum)\s+\w+\s*(:[^)]*)?$/.test(words)) return false;
  if (/(=|return|\(|,)\s*$/.test(words.replace(/\)\s*(const|noexcept|override|->\s*[\w:<>&*\s]+)*\s*$/, ''))) return false;
  // Control statements inside a function are not functions; at namespace level they do not occur.
  return !/^(if|for|while|switch|else|do|catch)\b/.test(words);
}

/** Each outermost function body: { name, line, lines }. */
function functionBodies(text) {
  const code = codeOnly(text);
  const bodies = [];
  const stack = [];
  let headStart = 0;
  let line = 1;
  for (let index = 0; index < code.length; index += 1) {
    const char = code[index];
    if (char === '\n') line += 1;
    if (char === ';') headStart = index + 1;
    if (char === '{') {
      const head = code.slice(headStart, index);
      const insideFunction = stack.some((frame) => frame.isFunction);
      const isFunction = !insideFunction && opensFunctionBody(head);
      const name = isFunction ? (/([\w:~]+)\s*\([^]*$/.exec(head)?.[1] ?? '?') : null;
      stack.push({ isFunction, name, line });
      headStart = index + 1;
    } else if (char === '}') {
      const frame = stack.pop();
      if (frame?.isFunction) bodies.push({ name: frame.name, line: frame.line, lines: line - frame.line - 1 });
      headStart = index + 1;
    }
  }
  return bodies;
}

test('the reader finds function bodies and their length', () => {
  const sample = 'namespace a {\nstruct S { int x; };\nint f(int y) {\n  if (y) {\n    return 1;\n  }\n  return 2;\n}\n}\n';
  assert.deepEqual(functionBodies(sample), [{ name: 'f', line: 3, lines: 4 }]);
});

test(`no C++ function in src/ is longer than ${MAX_LINES} lines`, () => {
  const long = sourceFiles(join(repoRoot, 'src')).flatMap((path) =>
    functionBodies(readFileSync(path, 'utf8'))
      .filter((body) => body.lines > MAX_LINES)
      .map((body) => `${relative(repoRoot, path)}:${body.line} ${body.name}: ${body.lines} lines`),
  );
  assert.deepEqual(long, []);
});
