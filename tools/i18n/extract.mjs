#!/usr/bin/env node
// Collects every translatable sentence's key and English from the code (docs/i18n.md):
//   engine (C++, src/engine and src/cli): message("key", "English" "continued", {{…}})
//   page (TypeScript, web/src, web/ship): t('key', 'English', {…}), ctx.t(…), this.t(…)
// and writes i18n/en/engine.json and i18n/en/page.json, the lists translators work from.
//
//   node tools/i18n/extract.mjs           rewrites the two files
//   node tools/i18n/extract.mjs --check   exits 1 when they differ from the code (the test runs this)
//
// Why a small lexer and not a regular expression: a call may span lines, the English may be
// several adjacent C++ literals with escapes, and a quote inside a comment, a character literal,
// a regex or a template literal must not start a string. Anything the extractor cannot read as
// literals is an error that names the file and line: a computed key or English would silently be
// missing from every translation.

import { readdirSync, readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const defaultRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where each part's sentences live, relative to the repository root. */
export const parts = {
  engine: { roots: ['src/engine', 'src/cli'], extensions: ['.cpp', '.hpp'], language: 'cpp', output: 'i18n/en/engine.json' },
  // web/src is the page; web/ship the embeds (element, iframe, LMS) that speak the page's language.
  page: { roots: ['web/src', 'web/ship'], extensions: ['.ts'], language: 'ts', output: 'i18n/en/page.json' },
};

const keyPattern = /^[a-z0-9_]+(\.[a-z0-9_]+)+$/;

function listFiles(directory, extensions) {
  if (!existsSync(directory)) return [];
  const found = [];
  for (const entry of readdirSync(directory, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) found.push(...listFiles(path, extensions));
    else if (extensions.some((extension) => entry.name.endsWith(extension)) && !entry.name.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Lexers: a flat list of tokens {type, value, line}; types: ident, string, template (no ${}),
// template-head (has ${}), punct, number, other. Comments vanish.

const identStart = /[A-Za-z_$]/;
const identPart = /[A-Za-z0-9_$]/;

function lineCounter(text) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (index) => {
    let low = 0, high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle] <= index) low = middle; else high = middle - 1;
    }
    return low + 1;
  };
}

class SyntaxProblem extends Error {}

/** Past a comment or white space at `i` (C++ and TypeScript write them alike); `i` when there is none. */
function skipTrivia(text, i, fail) {
  const c = text[i];
  if (c === '/' && text[i + 1] === '/') {
    while (i < text.length && text[i] !== '\n') i++;
    return i;
  }
  if (c === '/' && text[i + 1] === '*') {
    const end = text.indexOf('*/', i + 2);
    if (end < 0) fail(i, 'an unclosed comment');
    return end + 2;
  }
  return /\s/.test(c) ? i + 1 : i;
}

function cppEscape(text, i, problem) {
  // text[i] is the character after the backslash; returns [decoded, next index].
  const c = text[i];
  const simple = { n: '\n', t: '\t', r: '\r', '"': '"', "'": "'", '\\': '\\', '?': '?', a: '\x07', b: '\b', f: '\f', v: '\v', '0': '\0' };
  if (c === 'x') {
    let j = i + 1;
    while (j < text.length && /[0-9a-fA-F]/.test(text[j])) j++;
    if (j === i + 1) problem('a \\x escape without hex digits');
    // Bytes given as escapes are UTF-8: collect consecutive \x escapes into one byte sequence.
    return [{ byte: parseInt(text.slice(i + 1, j), 16) }, j];
  }
  if (c === 'u' || c === 'U') {
    const length = c === 'u' ? 4 : 8;
    const digits = text.slice(i + 1, i + 1 + length);
    if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== length) problem(`a \\${c} escape needs ${length} hex digits`);
    return [String.fromCodePoint(parseInt(digits, 16)), i + 1 + length];
  }
  if (/[0-7]/.test(c) && !(c === '0' && !/[0-7]/.test(text[i + 1] ?? ''))) {
    let j = i;
    while (j < i + 3 && /[0-7]/.test(text[j])) j++;
    return [{ byte: parseInt(text.slice(i, j), 8) }, j];
  }
  if (c in simple) return [simple[c], i + 1];
  problem(`an unknown escape \\${c}`);
}

function lexCpp(text, file) {
  const tokens = [];
  const line = lineCounter(text);
  let i = 0;
  const fail = (at, why) => { throw new SyntaxProblem(`${file}:${line(at)}: ${why}`); };
  while (i < text.length) {
    const c = text[i];
    const after = skipTrivia(text, i, fail);
    if (after !== i) { i = after; continue; }
    if (c === '#' ) {
      // A preprocessor line (#include "x.hpp" must not read as a string); continued lines too.
      while (i < text.length && text[i] !== '\n') { if (text[i] === '\\' && text[i + 1] === '\n') i++; i++; }
      continue;
    }
    // String literals, with an optional encoding prefix; raw strings R"delim(…)delim".
    const prefix = /^(u8|u|U|L)?(R)?"/.exec(text.slice(i, i + 4));
    if (prefix && (i === 0 || !identPart.test(text[i - 1]))) {
      const start = i;
      i += prefix[0].length;
      if (prefix[2]) {
        const open = text.indexOf('(', i);
        const delimiter = text.slice(i, open);
        const close = text.indexOf(`)${delimiter}"`, open);
        if (open < 0 || close < 0) fail(start, 'an unclosed raw string');
        tokens.push({ type: 'string', value: text.slice(open + 1, close), line: line(start) });
        i = close + delimiter.length + 2;
        continue;
      }
      let value = '';
      let bytes = [];
      const flushBytes = () => { if (bytes.length) { value += Buffer.from(bytes).toString('utf8'); bytes = []; } };
      while (true) {
        if (i >= text.length || text[i] === '\n') fail(start, 'an unclosed string');
        const d = text[i];
        if (d === '"') { i++; break; }
        if (d === '\\') {
          const [decoded, next] = cppEscape(text, i + 1, (why) => fail(i, why));
          if (typeof decoded === 'object') bytes.push(decoded.byte);
          else { flushBytes(); value += decoded; }
          i = next;
          continue;
        }
        flushBytes();
        value += d;
        i++;
      }
      flushBytes();
      tokens.push({ type: 'string', value, line: line(start) });
      continue;
    }
    if (c === "'") {
      // A character literal; skipped. C++14 digit separators (1'000) are handled with numbers.
      const start = i;
      i++;
      while (i < text.length && text[i] !== "'") { if (text[i] === '\\') i++; i++; }
      if (i >= text.length) fail(start, 'an unclosed character literal');
      i++;
      tokens.push({ type: 'other', value: 'char', line: line(start) });
      continue;
    }
    if (identStart.test(c)) {
      const start = i;
      while (i < text.length && identPart.test(text[i])) i++;
      tokens.push({ type: 'ident', value: text.slice(start, i), line: line(start) });
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
      const start = i;
      while (i < text.length && (/[0-9A-Za-z_.]/.test(text[i]) || (text[i] === "'" && /[0-9A-Fa-f]/.test(text[i + 1] ?? '')) ||
        ((text[i] === '+' || text[i] === '-') && /[eEpP]/.test(text[i - 1])))) i++;
      tokens.push({ type: 'number', value: text.slice(start, i), line: line(start) });
      continue;
    }
    const two = text.slice(i, i + 2);
    if (two === '::' || two === '->') { tokens.push({ type: 'punct', value: two, line: line(i) }); i += 2; continue; }
    tokens.push({ type: 'punct', value: c, line: line(i) });
    i++;
  }
  return tokens;
}

function tsEscape(text, i, problem) {
  const c = text[i];
  const simple = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0' };
  if (c === 'x') return [String.fromCharCode(parseInt(text.slice(i + 1, i + 3), 16)), i + 3];
  if (c === 'u') {
    if (text[i + 1] === '{') {
      const close = text.indexOf('}', i);
      return [String.fromCodePoint(parseInt(text.slice(i + 2, close), 16)), close + 1];
    }
    const digits = text.slice(i + 1, i + 5);
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) problem('a \\u escape needs 4 hex digits');
    return [String.fromCharCode(parseInt(digits, 16)), i + 5];
  }
  if (c === '\r' && text[i + 1] === '\n') return ['', i + 2];
  if (c === '\n') return ['', i + 1];
  if (c in simple) return [simple[c], i + 1];
  return [c, i + 1];
}

// After these, a '/' starts a regular expression rather than a division.
const regexAfterPunct = new Set(['(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^']);
const regexAfterWord = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);

function lexTs(text, file) {
  const tokens = [];
  const line = lineCounter(text);
  const fail = (at, why) => { throw new SyntaxProblem(`${file}:${line(at)}: ${why}`); };
  // What each open '{' belongs to: a plain block or a template substitution ${…}.
  const braces = [];
  let i = 0;

  const readTemplate = (start) => {
    // i is just after the opening backtick or the '}' closing a substitution.
    let value = '';
    while (true) {
      if (i >= text.length) fail(start, 'an unclosed template literal');
      const d = text[i];
      if (d === '`') { i++; return { value, head: false }; }
      if (d === '$' && text[i + 1] === '{') { i += 2; braces.push('template'); return { value, head: true }; }
      if (d === '\\') {
        const [decoded, next] = tsEscape(text, i + 1, (why) => fail(i, why));
        value += decoded; i = next; continue;
      }
      value += d; i++;
    }
  };

  while (i < text.length) {
    const c = text[i];
    const after = skipTrivia(text, i, fail);
    if (after !== i) { i = after; continue; }
    if (c === '"' || c === "'") {
      const start = i;
      i++;
      let value = '';
      while (true) {
        if (i >= text.length || text[i] === '\n') fail(start, 'an unclosed string');
        const d = text[i];
        if (d === c) { i++; break; }
        if (d === '\\') {
          const [decoded, next] = tsEscape(text, i + 1, (why) => fail(i, why));
          value += decoded; i = next; continue;
        }
        value += d; i++;
      }
      tokens.push({ type: 'string', value, line: line(start) });
      continue;
    }
    if (c === '`') {
      const start = i;
      i++;
      const part = readTemplate(start);
      tokens.push({ type: part.head ? 'template-head' : 'template', value: part.value, line: line(start) });
      continue;
    }
    if (c === '{') { braces.push('block'); tokens.push({ type: 'punct', value: c, line: line(i) }); i++; continue; }
    if (c === '}') {
      const owner = braces.pop();
      if (owner === 'template') {
        const start = i;
        i++;
        const part = readTemplate(start);
        tokens.push({ type: part.head ? 'template-middle' : 'template-tail', value: part.value, line: line(start) });
        continue;
      }
      tokens.push({ type: 'punct', value: c, line: line(i) });
      i++;
      continue;
    }
    if (c === '/') {
      const previous = tokens[tokens.length - 1];
      const startsRegex = !previous ||
        (previous.type === 'punct' && regexAfterPunct.has(previous.value)) ||
        (previous.type === 'ident' && regexAfterWord.has(previous.value));
      if (startsRegex) {
        const start = i;
        i++;
        let inClass = false;
        while (true) {
          if (i >= text.length || text[i] === '\n') fail(start, 'an unclosed regular expression');
          const d = text[i];
          if (d === '\\') { i += 2; continue; }
          if (d === '[') inClass = true;
          else if (d === ']') inClass = false;
          else if (d === '/' && !inClass) { i++; break; }
          i++;
        }
        while (i < text.length && /[a-z]/.test(text[i])) i++;
        tokens.push({ type: 'other', value: 'regex', line: line(start) });
        continue;
      }
    }
    if (identStart.test(c)) {
      const start = i;
      while (i < text.length && identPart.test(text[i])) i++;
      tokens.push({ type: 'ident', value: text.slice(start, i), line: line(start) });
      continue;
    }
    if (/[0-9]/.test(c)) {
      const start = i;
      while (i < text.length && /[0-9A-Za-z_.]/.test(text[i])) i++;
      tokens.push({ type: 'number', value: text.slice(start, i), line: line(start) });
      continue;
    }
    tokens.push({ type: 'punct', value: c, line: line(i) });
    i++;
  }
  return tokens;
}

// ---------------------------------------------------------------------------------------------
// Finding the calls.

// Before `message(` these make it a declaration or definition, not a call.
const cppCallAfterWord = new Set(['return', 'throw', 'case', 'else', 'co_return', 'co_yield', 'do']);

function isLiteral(token, language) {
  if (!token) return false;
  if (token.type === 'string') return true;
  return language === 'ts' && token.type === 'template';
}

/**
 * Reads the literal arguments of one call starting at tokens[open] === '('.
 * Returns {key, english, problem}.
 */
function readCall(tokens, open, language, name) {
  const keyToken = tokens[open + 1];
  const at = `${name}(…)`;
  if (!isLiteral(keyToken, language)) {
    return { problem: `${at}: the key must be a string literal (found ${describe(keyToken)}); put values in {placeholders}` };
  }
  if (keyToken.type === 'template-head') return { problem: `${at}: the key must not contain \${}` };
  let i = open + 2;
  if (tokens[i]?.value !== ',') return { problem: `${at}: "${keyToken.value}" has no English sentence after the key` };
  i++;
  let english = '';
  let pieces = 0;
  while (true) {
    const token = tokens[i];
    if (language === 'ts' && (token?.type === 'template-head')) {
      return { problem: `${at}: "${keyToken.value}"'s English contains \${…}; write a {placeholder} and pass its value` };
    }
    if (!isLiteral(token, language)) {
      return { problem: `${at}: "${keyToken.value}"'s English must be a string literal (found ${describe(token)})` };
    }
    english += token.value;
    pieces++;
    i++;
    // C++ joins adjacent literals; TypeScript may join them with '+'.
    if (language === 'cpp' && tokens[i]?.type === 'string') continue;
    if (language === 'ts' && tokens[i]?.value === '+' && isLiteralOrHead(tokens[i + 1])) { i++; continue; }
    break;
  }
  const after = tokens[i]?.value;
  if (after !== ',' && after !== ')') {
    return { problem: `${at}: "${keyToken.value}"'s English is followed by ${describe(tokens[i])}; it must be literals only` };
  }
  return { key: keyToken.value, english, pieces };
}

function isLiteralOrHead(token) {
  return token && (token.type === 'string' || token.type === 'template' || token.type === 'template-head');
}

function describe(token) {
  if (!token) return 'the end of the file';
  if (token.type === 'string' || token.type === 'template') return `the literal ${JSON.stringify(token.value)}`;
  if (token.type === 'template-head') return 'a template with ${…}';
  return `\`${token.value}\``;
}

function findCalls(tokens, language, file, report) {
  const found = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type !== 'ident' || tokens[i + 1]?.value !== '(') continue;
    const previous = tokens[i - 1];
    if (language === 'cpp') {
      if (token.value !== 'message') continue;
      // obj.message(…) is some other class's member; `std::string message(…)` declares ours.
      if (previous && (previous.value === '.' || previous.value === '->')) continue;
      if (previous && previous.type === 'ident' && !cppCallAfterWord.has(previous.value)) continue;
      if (previous && (previous.value === '&' || previous.value === '*') && tokens[i - 2]?.type === 'ident' &&
        !cppCallAfterWord.has(tokens[i - 2].value)) {
        // `std::string& message(` or `T* message(`: a declaration. `a & message(…)` has no such shape in this code.
        continue;
      }
    } else {
      if (token.value !== 't') continue;
      if (previous && previous.type === 'ident' && (previous.value === 'function' || previous.value === 'get' || previous.value === 'set')) continue;
      // A method or parameter-typed declaration: t(key: string, …) — the first argument is a name with a type.
      if (tokens[i + 2]?.type === 'ident' && (tokens[i + 3]?.value === ':' || (tokens[i + 3]?.value === '?' && tokens[i + 4]?.value === ':'))) continue;
      // A declared property `t(…)` inside an interface/type literal ends with `): type;` — covered above.
    }
    const call = readCall(tokens, i + 1, language, token.value);
    if (call.problem) report(`${file}:${token.line}: ${call.problem}`);
    else found.push({ key: call.key, english: call.english, where: `${file}:${token.line}` });
  }
  return found;
}

// ---------------------------------------------------------------------------------------------

/** The catalogues the code implies, and every problem found; nothing is written. */
export function extract(root = defaultRoot) {
  const problems = [];
  const catalogues = {};
  for (const [part, spec] of Object.entries(parts)) {
    const seen = new Map();
    for (const base of spec.roots) {
      for (const path of listFiles(join(root, base), spec.extensions)) {
        const file = relative(root, path).split(sep).join('/');
        const text = readFileSync(path, 'utf8');
        let tokens;
        try {
          tokens = spec.language === 'cpp' ? lexCpp(text, file) : lexTs(text, file);
        } catch (error) {
          if (error instanceof SyntaxProblem) { problems.push(`${error.message} (the extractor could not read the file)`); continue; }
          throw error;
        }
        for (const call of findCalls(tokens, spec.language, file, (problem) => problems.push(problem))) {
          if (!keyPattern.test(call.key)) {
            problems.push(`${call.where}: the key "${call.key}" is not dotted lower case (a-z 0-9 _ .)`);
            continue;
          }
          const earlier = seen.get(call.key);
          if (earlier && earlier.english !== call.english) {
            problems.push(`${call.where}: the key "${call.key}" is used with other English than at ${earlier.where}:\n` +
              `    ${JSON.stringify(earlier.english)}\n    ${JSON.stringify(call.english)}`);
            continue;
          }
          if (!earlier) seen.set(call.key, call);
        }
      }
    }
    const sorted = {};
    for (const key of [...seen.keys()].sort()) sorted[key] = seen.get(key).english;
    catalogues[part] = sorted;
  }
  return { catalogues, problems };
}

export function serialise(catalogue) {
  return `${JSON.stringify(catalogue, null, 2)}\n`;
}

/** Which output files differ from what the code implies (their repository-relative paths). */
export function staleFiles(root, catalogues) {
  const stale = [];
  for (const [part, spec] of Object.entries(parts)) {
    const path = join(root, spec.output);
    const current = existsSync(path) ? readFileSync(path, 'utf8') : null;
    if (current !== serialise(catalogues[part])) stale.push(spec.output);
  }
  return stale;
}

function main(argv) {
  const check = argv.includes('--check');
  const rootIndex = argv.indexOf('--root');
  const root = rootIndex >= 0 ? argv[rootIndex + 1] : defaultRoot;
  const { catalogues, problems } = extract(root);
  if (problems.length > 0) {
    console.error(`i18n extract: ${problems.length} problem(s); fix them in the code:\n` + problems.map((p) => `  ${p}`).join('\n'));
    return 2;
  }
  if (check) {
    const stale = staleFiles(root, catalogues);
    if (stale.length > 0) {
      console.error(`i18n extract: ${stale.join(', ')} ${stale.length === 1 ? 'is' : 'are'} stale; run node tools/i18n/extract.mjs`);
      return 1;
    }
    return 0;
  }
  for (const [part, spec] of Object.entries(parts)) {
    const path = join(root, spec.output);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, serialise(catalogues[part]));
    console.log(`${spec.output}: ${Object.keys(catalogues[part]).length} keys`);
  }
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
