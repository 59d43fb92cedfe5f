#!/usr/bin/env bash
# The CLI as scripts use it: published figures within 2%, field-named errors with exit code 2.
# Usage: cli_test.sh PATH/TO/trainscope
set -uo pipefail
cli="$1"
passed=0
failed=0

check() {  # check NAME CONDITION-EXIT-CODE
  if [ "$2" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $1"; fi
}

# value_within SCENARIO PATH EXPECTED RELATIVE-TOLERANCE [SCALE]
value_within() {
  local output
  output="$(printf '%s' "$1" | "$cli" estimate -)" || return 1
  node -e '
    const [json, path, expected, tolerance, scale] = process.argv.slice(1);
    const value = path.split(".").reduce((o, k) => o[k], JSON.parse(json)) / Number(scale || 1);
    const ok = Math.abs(value / Number(expected) - 1) <= Number(tolerance);
    if (!ok) console.error(`${path}: ${value} is not within ${tolerance} of ${expected}`);
    process.exit(ok ? 0 : 1);' "$output" "$2" "$3" "$4" "${5:-1}"
}

# Llama 3 Herd of Models 2024: 3.8e25 FLOPs; at 40% of 989 TFLOP/s on 16,384 H100s ≈ 68 days.
value_within '{"model":{"preset":"llama3-405b"}}' compute.flops 3.8e25 0.02; check "Llama 3 405B FLOPs" $?
value_within '{"model":{"preset":"llama3-405b"}}' compute.seconds 68 0.02 86400; check "Llama 3 405B days" $?
value_within '{"model":{"preset":"llama3-405b"}}' compute.seconds_on_one_gpu 3000 0.03 31557600; check "Llama 3 405B years on one GPU" $?
# Brown et al. 2020, Table D.1: GPT-3 175B used 3.14e23 training FLOPs.
value_within '{"model":{"preset":"gpt3-175b"}}' compute.flops 3.14e23 0.02; check "GPT-3 FLOPs" $?
# Narayanan et al. 2021, Eq. 4: GPT-3 on 1024 A100 at 140 TFLOP/s with full recompute ≈ 34 days.
value_within '{"model":{"preset":"gpt3-175b"},"training":{"recompute":"full"},"parallel":{"gpus":1024},"hardware":{"gpu":"a100-sxm-80","utilization":0.44871794871794873}}' \
  compute.seconds 34 0.02 86400; check "GPT-3 days" $?
# ZeRO Figure 1: 7.5B on 64 GPUs, stage 3 → 1.88 GB of model states per GPU (optimizer share checked here).
value_within '{"model":{"params":7.5e9},"parallel":{"gpus":64,"zero_stage":3}}' training.per_gpu.optimizer_states 0.9375e9 0.001; check "ZeRO-3 optimizer shard" $?
# The lesson: a 70B model runs on two 80 GB GPUs.
value_within '{"model":{"preset":"llama3-70b"}}' inference.min_gpus 2 0; check "70B inference GPUs" $?

# Bad input: exit code 2 and the field named on stderr.
bad_input_names_field() {  # SCENARIO FIELD
  local stderr_text status
  stderr_text="$(printf '%s' "$1" | "$cli" estimate - 2>&1 >/dev/null)"
  status=$?
  [ "$status" -eq 2 ] && grep -q "$2" <<<"$stderr_text"
}
bad_input_names_field '{"model":{"params":-1}}' model.params; check "negative params" $?
bad_input_names_field '{"parallel":{"gpus":10,"tensor":4}}' parallel.gpus; check "indivisible GPUs" $?
bad_input_names_field '{"model":{"preset":"nope"}}' model.preset; check "unknown preset" $?
bad_input_names_field '{"model":' scenario; check "malformed JSON" $?
bad_input_names_field '{"model":{"params":1e30}}' model.params; check "absurd magnitude" $?

bad_input_names_field '{"parallel":{"gpus":8,"gpus":16}}' 'parallel.gpus: appears twice'; check "duplicate member" $?
bad_input_names_field "$(printf '{"model":{"preset":"caf\xe9"}}')" 'not valid UTF-8'; check "invalid UTF-8 input" $?
# An unknown field of 40 "é" is cut for the message on a character boundary: the output is UTF-8.
long_name="$(printf '\xc3\xa9%.0s' $(seq 40))"
{ printf '{"model":{"%sx":1}}' "$long_name" | "$cli" estimate - 2>/dev/null || true; } | node -e '
  const bytes = require("fs").readFileSync(0);
  new TextDecoder("utf-8", { fatal: true }).decode(bytes);' 2>/dev/null
check "cut names stay valid UTF-8" $?

# The table is readable and says which GB it means.
table="$(printf '{}' | "$cli" estimate - --table)"; check "table exit code" $?
grep -q "10^9 bytes" <<<"$table"; check "table states decimal GB" $?
grep -q "optimizer states" <<<"$table"; check "table breaks training memory down" $?
# Rows are labelled in words, never by the estimate's keys (issue 24: "master_weights").
! grep -qE "master_weights|optimizer_states|gathered_weights" <<<"$table" && grep -q "^  FP32 master copy  " <<<"$table"
check "table labels its rows with words" $?

# Presets list every model the page offers.
"$cli" presets | node -e 'const p = JSON.parse(require("fs").readFileSync(0)); process.exit(p.length >= 9 && p.every(x => x.source) ? 0 : 1)'
check "presets carry sources" $?
"$cli" gpus | node -e 'const g = JSON.parse(require("fs").readFileSync(0)); process.exit(g.some(x => x.id === "h100-sxm" && x.peak_flops === 989e12) ? 0 : 1)'
check "GPU catalogue has the H100" $?

# Usage errors are not input errors.
"$cli" frobnicate >/dev/null 2>&1; [ $? -eq 64 ]; check "unknown command exits 64" $?
"$cli" estimate /nonexistent/file >/dev/null 2>&1; [ $? -eq 2 ]; check "unreadable file exits 2" $?

# quiz-check: the seed count is read strictly; a bank with a duplicate member fails naming it.
seeds_text="$("$cli" quiz-check /dev/null 99999999999 2>&1 >/dev/null)"; status=$?
[ "$status" -eq 64 ] && grep -q "99999999999" <<<"$seeds_text"; check "huge seed count is a usage error" $?
"$cli" quiz-check /dev/null 12abc >/dev/null 2>&1; [ $? -eq 64 ]; check "seed count with trailing text is a usage error" $?
"$cli" quiz-check /dev/null -1 >/dev/null 2>&1; [ $? -eq 64 ]; check "negative seed count is a usage error" $?
duplicate_bank="$(mktemp)"
printf '{"version":1,"items":[],"items":[]}' >"$duplicate_bank"
bank_report="$("$cli" quiz-check "$duplicate_bank" 1 --json 2>/dev/null)"; status=$?
rm -f "$duplicate_bank"
[ "$status" -eq 2 ] && grep -q '"field":"items"' <<<"$bank_report" && grep -q 'appears twice' <<<"$bank_report"
check "quiz-check names a duplicate member" $?

# quiz-check --preview: each item as asked for seeds 0..SEEDS-1 with the engine's answer, then the check.
example_bank="$(dirname "$0")/../../docs/examples/author-bank.json"
preview="$("$cli" quiz-check "$example_bank" --preview 2 --json)"; status=$?
[ "$status" -eq 0 ] && grep -q '^  seed 1: Your team trains a model with 13 billion parameters' <<<"$preview" \
  && grep -q '^    answer: 67,400 (within 10%)$' <<<"$preview" && ! grep -q '^  seed 2:' <<<"$preview" \
  && grep -q '^    \[x\] same: ' <<<"$preview" && grep -q '^    \[ \] half: ' <<<"$preview" \
  && grep -q '"settings":{"order":"shuffled","draw":3,"pass_mark":0.7}' <<<"$preview"
check "quiz-check --preview prints each item's instances and answers" $?
broken_bank="$(mktemp)"
sed 's/"feedback": "The wall-clock/"feedbak": "The wall-clock/; s/"unit": "", "tolerance": 0.1/"unit": "", "tolerance": 2/' "$example_bank" >"$broken_bank"
preview="$("$cli" quiz-check "$broken_bank" --preview 1 --json)"; status=$?
rm -f "$broken_bank"
[ "$status" -eq 2 ] && grep -q '"item":"more-gpus-same-hours","field":"options\[1\].feedback"' <<<"$preview" \
  && grep -q '"item":"gpu-hours-to-train","field":"answer.tolerance"' <<<"$preview" \
  && grep -q '^  seed 0: cannot be asked:$' <<<"$preview" && grep -q '"unusable":\[0,1\]' <<<"$preview"
check "quiz-check --preview names a broken item's field and exits 2" $?
"$cli" quiz-check "$example_bank" --preview 2 3 >/dev/null 2>&1; [ $? -eq 64 ]; check "quiz-check with two seed counts is a usage error" $?

# quiz-check speaks to people by default: a summary, then each problem once, by item and field.
report="$("$cli" quiz-check "$example_bank" 5)"; status=$?
[ "$status" -eq 0 ] && grep -q '^No problems: every item can be asked.$' <<<"$report" && ! grep -q '^{' <<<"$report"
check "quiz-check prints a report for people" $?
# An item that draws nothing asks one question for every seed: its error is listed once, not per seed.
fixed_bank="$(mktemp)"
node -e '
  const bank = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const item = bank.items.find((i) => i.id === "gpu-hours-to-train");
  delete item.randomize;
  item.explanation = item.explanation.replace("{answer}", "a lot of");
  process.stdout.write(JSON.stringify(bank));' "$example_bank" >"$fixed_bank"
report="$("$cli" quiz-check "$fixed_bank" 20)"; status=$?
rm -f "$fixed_bank"
[ "$status" -eq 2 ] && [ "$(grep -c '^  error: gpu-hours-to-train, explanation: must state the answer' <<<"$report")" -eq 1 ] \
  && grep -q '^Errors: 1. Warnings: 0.$' <<<"$report"
check "quiz-check lists an error of an item that draws nothing once" $?

# --lang: the engine's words in German or Spanish from i18n/<lang>/engine*.json; field paths stay.
lang_error="$(printf '%s' '{"parallel":{"gpus":10,"tensor":4}}' | "$cli" estimate - --lang de 2>&1 >/dev/null)"; status=$?
[ "$status" -eq 2 ] && grep -q '^error: parallel.gpus muss ein Vielfaches von tensor × pipeline (4) sein$' <<<"$lang_error"
check "--lang de writes a field's error in German" $?
lang_table="$(printf '%s' '{"model":{"preset":"llama3-70b"}}' | "$cli" --lang=es-419 estimate - --table)"; status=$?
[ "$status" -eq 0 ] && grep -q '^Ejecución (inferencia)$' <<<"$lang_table" && grep -q '^  copia maestra  ' <<<"$lang_table"
check "--lang es writes the table in Spanish" $?
# Spanish joins a count in millions to its noun with "de" (issue 24: "406.000 millones parámetros").
grep -q '^Modelo: 70.600 millones de parámetros$' <<<"$lang_table"; check "--lang es writes millones de parámetros" $?
english_table="$(printf '%s' '{"model":{"preset":"llama3-70b"}}' | "$cli" estimate - --table --lang en)"
grep -q '^Running (inference)$' <<<"$english_table" && grep -q '^  FP32 master copy             ' <<<"$english_table"
check "--lang en keeps the English table" $?
"$cli" presets --lang fr >/dev/null 2>&1; [ $? -eq 64 ]; check "an unknown --lang is a usage error" $?
"$cli" presets --lang >/dev/null 2>&1; [ $? -eq 64 ]; check "--lang without a tag is a usage error" $?

# trainscope fit (docs/scenario.md, "What fits"): JSON with ranked layouts, a table, field-named errors.
fit_output="$(printf '%s' '{"model":{"preset":"llama3-8b"},"parallel":{"gpus":8}}' | "$cli" fit -)"; check "fit exit code" $?
node -e '
  const r = JSON.parse(process.argv[1]);
  const ranked = r.layouts.every((l, i) => i === 0 || r.layouts[i - 1].run_seconds <= l.run_seconds);
  const fit = r.layouts.every((l) => l.fits && l.peak_bytes <= r.current.memory_bytes);
  process.exit(r.layouts.length > 0 && ranked && fit && r.changes.length > 0 ? 0 : 1);' "$fit_output"
check "fit lists layouts that fit, fastest first, and changes for a setup that does not fit" $?
fit_table="$(printf '%s' '{"model":{"preset":"llama3-8b"},"parallel":{"gpus":8}}' | "$cli" fit - --table)"; check "fit table exit code" $?
grep -q '^Layouts that fit, fastest first' <<<"$fit_table" && grep -q '^Changes that make it fit$' <<<"$fit_table"
check "fit table for people" $?
fit_error="$(printf '%s' '{"scenario":{},"max_layouts":0}' | "$cli" fit - 2>&1 >/dev/null)"; status=$?
[ "$status" -eq 2 ] && grep -q 'max_layouts' <<<"$fit_error"; check "fit names a bad field and exits 2" $?

# No test names a development machine's folders: tests run from any checkout (issue 24).
repo="$(cd "$(dirname "$0")/../.." && pwd)"
! grep -rnE '(/work/|/home/[a-z]|/Users/)' "$repo/tests" --include='*.mjs' --include='*.cpp' --include='*.hpp' --include='*.inc' --include='*.sh' \
  | grep -v "grep -rnE" >/dev/null
check "no test comment names an absolute path of a development machine" $?

echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
