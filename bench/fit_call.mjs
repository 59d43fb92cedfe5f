// The inverse search as the page calls it: the module's fit() on the two costliest inputs (16,384
// H100s, Llama 3 405B and DeepSeek-V3, top 20), reading the request and writing the answer's JSON
// included. engine_bench's `fit` times search_fits alone; this is what What fits pays per input.
//
// Usage: node bench/fit_call.mjs [BUILD_DIR ...]   (default build/wasm; several dirs are taken in
// turn, round by round, so a flag change is compared under the same load). Prints, per dir and
// input, the least CPU time per call over six rounds of 60 calls (after 100 to warm up): the least,
// because load only ever adds. Check `uptime` first.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const require = createRequire(import.meta.url);
const dirs = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['build/wasm'];
const presets = ['llama3-405b', 'deepseek-v3'];
const requests = presets.map((preset) =>
  JSON.stringify({ scenario: { model: { preset }, parallel: { gpus: 16384 }, hardware: { gpu: 'h100-sxm' } }, max_layouts: 20 }),
);

const modules = [];
for (const dir of dirs) {
  const createEngine = require(resolve(dir, 'trainscope_engine.js'));
  modules.push({ dir, engine: await createEngine({ wasmBinary: readFileSync(join(dir, 'trainscope_engine.wasm')) }) });
}
for (const { engine } of modules) {
  for (const request of requests) {
    const answer = JSON.parse(engine.fit(request));
    if (answer.errors.length > 0 || answer.layouts.length === 0) throw new Error(`fit() found nothing: ${JSON.stringify(answer.errors)}`);
    for (let k = 0; k < 100; k += 1) engine.fit(request);
  }
}
const least = new Map();
for (let round = 0; round < 6; round += 1) {
  for (const { dir, engine } of modules) {
    requests.forEach((request, k) => {
      const start = process.cpuUsage();
      for (let call = 0; call < 60; call += 1) engine.fit(request);
      const used = process.cpuUsage(start);
      const ms = (used.user + used.system) / 1000 / 60;
      const key = `${dir}  ${presets[k]}`;
      least.set(key, Math.min(least.get(key) ?? Infinity, ms));
    });
  }
}
for (const [key, ms] of least) console.log(`fit(), ${key} on 16,384 H100s: ${ms.toFixed(3)} ms CPU per call`);
