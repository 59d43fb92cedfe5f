// Validation beside a peer (not a test: it prints figures and never fails on them). Every run of
// tests/engine/validation/runs.json that the engine models (docs/validation.md) is given to
//
//   trainscope  the native CLI (`trainscope estimate -`, the run's `scenario` on stdin), whose figure
//               for the quantity the run measured is the one validation_test.cpp compares:
//               allocated = training.per_gpu.total, reserved = training.overhead.reserved,
//               nvidia-smi = training.overhead.in_use; its verdict is training.fits;
//   gpu_poor    RahulSChand/gpu_poor's own built page (its repository's docs/ folder, served here),
//               driven in headless Chromium as a learner uses it: the model by its Hugging Face id
//               picked from the suggestions (or its size in billions when the id is not in its list),
//               "Training (Huggingface)", Full / LoRA / QLoRA, ADAM, quant None, prompt length + 1
//               token to generate = the run's sequence (its page says "for training, set tokens to
//               generate as 1"; it adds the two), batch size, gradient checkpointing, the GPU and the
//               number of GPUs, then "Find Memory requirement". Its Total is in MB of 2^20 bytes (its
//               convertToMB divides by 1024 · 1024); its verdict is its row "selected GPUs needed"
//               ≤ the run's GPUs (Total against the card's memory).
//
// It prints per run the measured figure, both estimates and both errors ((estimate − measured) /
// measured), each verdict, and what gpu_poor cannot express for that run (the legend says each);
// then per project and overall the median |error|, the worst and the wrong fits / out-of-memory
// verdicts. Runs are read from runs.json each time, so added runs are compared without a change here.
// Nothing of gpu_poor's code is copied: its page computes its figure.
//
// Usage: node bench/validation_peers.mjs [--gpu-poor PATH] [--trainscope build/native/trainscope]
//          [--runs tests/engine/validation/runs.json] [--match REGEX] [--json FILE] [--screenshots DIR]
// PATH (or $GPU_POOR): a bare git repository or checkout of RahulSChand/gpu_poor (its docs/ at HEAD
// is exported to a temporary folder), or a folder holding its built site (index.html, static/).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serveDirectory } from '../web/serve.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function parseArguments(argv) {
  const options = {
    gpuPoor: process.env.GPU_POOR ?? resolve(ROOT, '../.mirror/RahulSChand+gpu_poor/repo'),
    trainscope: join(ROOT, 'build/native/trainscope'),
    runs: join(ROOT, 'tests/engine/validation/runs.json'),
    match: null,
    json: null,
    screenshots: null,
  };
  const names = {
    '--gpu-poor': 'gpuPoor',
    '--trainscope': 'trainscope',
    '--runs': 'runs',
    '--match': 'match',
    '--json': 'json',
    '--screenshots': 'screenshots',
  };
  for (let index = 0; index < argv.length; index += 2) {
    const name = names[argv[index]];
    if (!name || argv[index + 1] === undefined) throw new Error(`unknown or incomplete option ${argv[index]} (see the file's header)`);
    options[name] = argv[index + 1];
  }
  return options;
}

// ── trainscope ────────────────────────────────────────────────────────────────────────────────

// The estimate's figure for what a run measured (docs/validation.md, "What was measured"), as
// tests/engine/validation_test.cpp's engine_figure takes it.
function trainscopeFigure(estimate, quantity) {
  if (quantity === 'reserved') return estimate.training.overhead.reserved;
  if (quantity === 'nvidia-smi') return estimate.training.overhead.in_use;
  return estimate.training.per_gpu.total;
}

function runTrainscope(cli, run) {
  const result = spawnSync(cli, ['estimate', '-'], { input: JSON.stringify(run.scenario), encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`trainscope estimate for ${run.id} exited ${result.status}: ${result.stdout}${result.stderr}`);
  const estimate = JSON.parse(result.stdout);
  return {
    bytes: trainscopeFigure(estimate, run.measured.quantity),
    fits: estimate.training.fits,
    params: estimate.params,
    gpu: estimate.gpu,
  };
}

// ── What a gpu_poor user enters for a run ─────────────────────────────────────────────────────

// gpu_poor's GPU list has no L40S or V100: a learner with one would pick the card of the same
// memory, which is all its memory figure and its "GPUs needed" use.
const GPU_POOR_GPUS = {
  'a100-sxm-40': { option: 'A100-40GB' },
  'a100-sxm-80': { option: 'A100-80GB' },
  'h100-sxm': { option: 'H100-SXM5' },
  'h800-sxm': { option: 'H100-SXM5', standIn: 'H100-SXM5 (80 GB)' },
  'rtx-4090': { option: 'rtx-4090' },
  l40s: { option: 'A-6000', standIn: 'A-6000 (48 GB, as the L40S)' },
  'v100-16': { option: 'A-4000', standIn: 'A-4000 (16 GB, as the V100 16 GB)' },
};

// What gpu_poor has no field for, per run: code → explanation (printed once as a legend).
const LIMITS = {
  size: "model not in its list: its size in billions typed (the engine's parameter count), its shape guessed from the size",
  encoder: 'an encoder (BERT): it counts a decoder with its own guessed vocabulary and shape',
  precision: 'no precision choice: every weight, gradient and Adam state counted in 2 bytes (no FP32 training, no FP32 master copy)',
  optimizer: 'no such optimizer (Adafactor, 8-bit Adam): ADAM chosen',
  gpus: 'its memory is for one copy of the whole model, not divided over GPUs; verdict: "selected GPUs needed" ≤ the run\'s GPUs',
  gpu: "the run's GPU is not in its list: the card of the same memory chosen",
  selective: 'selective recompute: its checkpointing is yes or no; yes chosen',
  extras: 'no paged optimizer, optimizer in backward or offload choice',
};

function modelChoice(run, estimate, modelIds) {
  const id = String(run.model).split(/\s/)[0];
  const known = modelIds.find((key) => key === id) ?? modelIds.find((key) => key.toLowerCase() === id.toLowerCase());
  if (known) return { modelId: known, sizeBillions: null, limits: [] };
  const sizeBillions = Math.round(estimate.params / 1e7) / 100;
  return { modelId: null, sizeBillions, limits: ['size'] };
}

function trainingLimits(training, parallel) {
  const limits = [];
  if (training.precision === 'fp32' || training.precision_recipe === 'autocast' || training.precision_recipe === 'mixed')
    limits.push('precision');
  if (training.optimizer && !/^adamw?$/.test(training.optimizer)) limits.push('optimizer');
  if (training.recompute === 'selective') limits.push('selective');
  if (training.paged_optimizer || training.optimizer_in_backward || training.offload) limits.push('extras');
  if ((parallel?.gpus ?? 1) > 1) limits.push('gpus');
  return limits;
}

function gpuPoorInput(run, estimate, modelIds) {
  const { training, parallel } = run.scenario;
  const model = modelChoice(run, estimate, modelIds);
  const limits = [...model.limits];
  if (/\bbert\b/i.test(run.model)) limits.push('encoder');
  limits.push(...trainingLimits(training, parallel));
  const gpu = GPU_POOR_GPUS[estimate.gpu.id];
  if (gpu?.standIn) limits.push('gpu');
  const method = { lora: 'lora_trn', qlora: 'qlora' }[training.method] ?? 'full_trn';
  return {
    ...model,
    method,
    prompt: training.sequence - 1,
    generate: 1,
    batch: training.micro_batch ?? 1,
    checkpointing: training.recompute && training.recompute !== 'none' ? 'yes' : 'no',
    gpuOption: gpu?.option ?? null,
    gpuLabel: gpu?.standIn ?? gpu?.option ?? `none for ${estimate.gpu.id}`,
    gpus: parallel?.gpus ?? 1,
    limits,
  };
}

// ── gpu_poor's page ───────────────────────────────────────────────────────────────────────────

function gitCommit(gitDir) {
  return execFileSync('git', ['--git-dir', gitDir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
}

// Its built site uses absolute paths under /gpu_poor/, so it is served from a folder's gpu_poor/.
function exportGpuPoor(path) {
  if (!existsSync(path)) throw new Error(`no gpu_poor at ${path}: pass --gpu-poor (its git repository or built site) or set GPU_POOR`);
  const folder = mkdtempSync(join(tmpdir(), 'gpu_poor-'));
  const site = join(folder, 'gpu_poor');
  if (existsSync(join(path, 'index.html'))) {
    execFileSync('cp', ['-r', path, site]);
    return { folder, site, commit: 'a built site folder' };
  }
  const gitDir = existsSync(join(path, '.git')) ? join(path, '.git') : path;
  execFileSync('mkdir', ['-p', site]);
  execFileSync('sh', ['-c', 'git --git-dir "$0" archive HEAD docs | tar -x -C "$1" --strip-components=1', gitDir, site]);
  return { folder, site, commit: gitCommit(gitDir) };
}

async function openGpuPoor(site) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const { server, url } = await serveDirectory(join(site, '..'), 0);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // No network at run time: its analytics tag and web font are refused, nothing else leaves.
  await context.route('**/*', (route) => (route.request().url().startsWith(url) ? route.continue() : route.abort()));
  const page = await context.newPage();
  return { browser, server, page, address: `${url}gpu_poor/`, chromium: browser.version() };
}

const field = (page, label) => page.locator(`xpath=//label[contains(normalize-space(.), "${label}")]/following-sibling::input`).first();

async function chooseModel(page, input) {
  if (input.modelId) {
    await page.getByPlaceholder('e.g. meta-llama/Llama-2-7b-hf').fill(input.modelId);
    await page.locator('ul li', { hasText: input.modelId }).getByText(input.modelId, { exact: true }).first().click({ timeout: 20_000 });
  } else {
    await page.getByPlaceholder('e.g. for llama-7b enter 7').fill(String(input.sizeBillions));
  }
}

async function fillForm(page, input) {
  await chooseModel(page, input);
  await page.selectOption('select[name=dropdownTrnOrNot]', 'trn');
  await page.selectOption('select[name=dropdownFullOrNot]', input.method);
  await page.selectOption('select[name=dropdownOpt]', 'adam_opt');
  await page.selectOption('select[name=dropdownQuant]', 'no_quant');
  await field(page, 'Prompt len?').fill(String(input.prompt));
  await field(page, 'Tokens to Generate?').fill(String(input.generate));
  await field(page, 'Batch-size?').fill(String(input.batch));
  await page.selectOption('select[name=isGradCheckPoint]', input.checkpointing);
  if (input.gpuOption) await page.selectOption('select[name=dropdownGPU]', input.gpuOption);
  await field(page, 'No. of GPUs?').fill(String(input.gpus));
}

// Its answer: the Total row (MB = 2^20 bytes) and "selected GPUs needed", or its error dialog.
async function readAnswer(page) {
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('td')].some((td) => td.textContent.trim() === 'Total') ||
      document.querySelector('.ReactModal__Content'),
    null,
    { timeout: 20_000 },
  );
  return page.evaluate(() => {
    const modal = document.querySelector('.ReactModal__Content');
    if (modal) return { error: modal.textContent.trim() };
    const cellAfter = (name) => [...document.querySelectorAll('td')].find((td) => td.textContent.trim() === name)?.nextElementSibling;
    return { totalText: cellAfter('Total')?.textContent.trim(), neededText: cellAfter('selected GPUs needed')?.textContent.trim() };
  });
}

async function askGpuPoor(session, input, first, screenshot) {
  const { page } = session;
  if (first) await page.goto(session.address);
  else await page.reload();
  await page.getByPlaceholder('e.g. meta-llama/Llama-2-7b-hf').waitFor();
  await fillForm(page, input);
  await page.getByRole('button', { name: 'Find Memory requirement' }).click();
  const answer = await readAnswer(page);
  if (screenshot) await page.screenshot({ path: screenshot, fullPage: true });
  if (answer.error) return { error: answer.error };
  const megabytes = Number(/([\d.]+)\s*MB/.exec(answer.totalText ?? '')?.[1]);
  const needed = Number(answer.neededText);
  if (!Number.isFinite(megabytes)) return { error: `no Total read (${answer.totalText})` };
  return { bytes: megabytes * 2 ** 20, megabytes, needed, fits: input.gpuOption ? needed <= input.gpus : null };
}

// ── Summary ───────────────────────────────────────────────────────────────────────────────────

function median(values) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const errorOf = (estimate, measured) => (estimate - measured) / measured;

function summarise(rows) {
  const of = (key) => {
    const measured = rows.filter((row) => row.ran && Number.isFinite(row[key]?.bytes));
    const errors = measured.map((row) => Math.abs(errorOf(row[key].bytes, row.measured)));
    const judged = rows.filter((row) => typeof row[key]?.fits === 'boolean');
    const wrong = judged.filter((row) => row[key].fits !== row.ran).length;
    return {
      runs: measured.length,
      median: median(errors),
      worst: errors.length ? Math.max(...errors) : NaN,
      wrong,
      judged: judged.length,
    };
  };
  return { trainscope: of('trainscope'), gpuPoor: of('gpuPoor') };
}

const percent = (value) => (Number.isFinite(value) ? `${value >= 0 ? '+' : ''}${(100 * value).toFixed(1)}%` : '—');
const gigabytes = (bytes) => (Number.isFinite(bytes) ? (bytes / 1e9).toFixed(2) : '—');
const verdictWord = (fits, ran) => (typeof fits !== 'boolean' ? '—' : fits === ran ? 'right' : fits ? 'WRONG (fits)' : 'WRONG (OOM)');

function rowLine(row) {
  const ts = row.trainscope;
  const gp = row.gpuPoor;
  const measured = row.ran ? `${gigabytes(row.measured)} ${row.quantity}` : 'out of memory';
  const tsError = row.ran ? percent(errorOf(ts.bytes, row.measured)) : '';
  const gpError = row.ran && gp.bytes ? percent(errorOf(gp.bytes, row.measured)) : '';
  const gpFigure = gp.error ? `error: ${gp.error.slice(0, 60)}` : `${gigabytes(gp.bytes)}`;
  return [
    row.id.padEnd(56),
    measured.padEnd(22),
    gigabytes(ts.bytes).padStart(7),
    tsError.padStart(8),
    verdictWord(ts.fits, row.ran).padEnd(13),
    gpFigure.padStart(7),
    gpError.padStart(8),
    verdictWord(gp.fits, row.ran).padEnd(13),
    row.input.limits.join(','),
  ].join(' ');
}

function summaryLines(rows) {
  const lines = [];
  const line = (label, group) => {
    const { trainscope: ts, gpuPoor: gp } = summarise(group);
    const part = (s) =>
      `median |error| ${percent(s.median).replace('+', '')}, worst ${percent(s.worst).replace('+', '')}, ${s.wrong} of ${s.judged} verdicts wrong`;
    lines.push(`${label} (${group.length} runs, ${ts.runs} with a measured peak): trainscope ${part(ts)}; gpu_poor ${part(gp)}`);
  };
  for (const project of [...new Set(rows.map((row) => row.project))])
    line(
      project,
      rows.filter((row) => row.project === project),
    );
  line('all', rows);
  const expressible = rows.filter((row) => row.input.limits.length === 0);
  if (expressible.length) line('runs gpu_poor can express in full', expressible);
  return lines;
}

// ── Main ──────────────────────────────────────────────────────────────────────────────────────

function readRuns(options) {
  const document = JSON.parse(readFileSync(options.runs, 'utf8'));
  const pattern = options.match ? new RegExp(options.match) : null;
  const all = document.runs.filter((run) => !pattern || pattern.test(run.id));
  return { modelled: all.filter((run) => !run.not_modelled), notModelled: all.filter((run) => run.not_modelled) };
}

function header(options, exported, session, count) {
  const commit = spawnSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
  const dirty = spawnSync('git', ['-C', ROOT, 'status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).stdout.trim();
  return [
    `Validation beside gpu_poor — ${new Date().toISOString().slice(0, 16)}Z, trainscope ${commit}${dirty ? ' (with local changes)' : ''}, ` +
      `gpu_poor ${exported.commit}, Chromium ${session.chromium}, load ${loadavg()[0].toFixed(1)}, ${count} runs from ${options.runs}`,
    'Errors are (estimate − measured) / measured on the quantity each run measured; GB = 10^9 bytes; gpu_poor MB = 2^20 bytes.',
    '',
    `${'run'.padEnd(56)} ${'measured'.padEnd(22)} ${'ts GB'.padStart(7)} ${'ts err'.padStart(8)} ${'ts verdict'.padEnd(13)} ` +
      `${'gp GB'.padStart(7)} ${'gp err'.padStart(8)} ${'gp verdict'.padEnd(13)} what gpu_poor cannot express`,
  ];
}

async function compareRun(options, session, run, modelIds, first) {
  const trainscope = runTrainscope(options.trainscope, run);
  const input = gpuPoorInput(run, trainscope, modelIds);
  let gpuPoor;
  try {
    const screenshot = options.screenshots ? join(options.screenshots, `${run.id}.png`) : null;
    gpuPoor = await askGpuPoor(session, input, first, screenshot);
  } catch (error) {
    gpuPoor = { error: String(error.message).split('\n')[0] };
  }
  const ran = run.measured.outcome === 'ran';
  return {
    id: run.id,
    project: run.project,
    quantity: run.measured.quantity,
    ran,
    measured: run.measured.bytes,
    trainscope,
    gpuPoor,
    input,
  };
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  const { modelled, notModelled } = readRuns(options);
  const exported = exportGpuPoor(resolve(options.gpuPoor));
  const modelIds = Object.keys(JSON.parse(readFileSync(join(exported.site, 'all_configs.json'), 'utf8')));
  const session = await openGpuPoor(exported.site);
  const rows = [];
  try {
    for (const line of header(options, exported, session, modelled.length)) console.log(line);
    for (const run of modelled) {
      const row = await compareRun(options, session, run, modelIds, rows.length === 0);
      rows.push(row);
      console.log(rowLine(row));
    }
  } finally {
    await session.browser.close();
    session.server.close();
    rmSync(exported.folder, { recursive: true, force: true });
  }
  printFooter(rows, notModelled);
  if (options.json) writeFileSync(options.json, JSON.stringify({ rows, summary: summarise(rows) }, null, 1));
}

function printFooter(rows, notModelled) {
  console.log('');
  for (const line of summaryLines(rows)) console.log(line);
  console.log('');
  console.log('What gpu_poor cannot express (each run above lists its codes; it is still asked what a learner would ask):');
  for (const [code, text] of Object.entries(LIMITS)) console.log(`  ${code.padEnd(10)} ${text}`);
  console.log('  and for every run: no LoRA rank or targets, no attention kernel (it keeps the attention matrix), no framework');
  if (notModelled.length) {
    const methods = [...new Set(notModelled.map((run) => run.not_modelled.replace(/ is not one of the engine's methods$/, '')))];
    console.log(`Not compared (${notModelled.length} runs, neither tool has the method): ${methods.join('; ')}`);
  }
}

await main();
