// Runs in gpu_poor's page before its own scripts (page_bench.mjs --peer-prepare): gpu_poor shows
// no figure until a learner fills three fields and presses "Find Memory requirement", so this
// does what that learner does, once, as soon as React has drawn the form: a 7B model, prompt 300
// and context 1,000 tokens. It marks the context field data-bench="context", the input the
// benchmark then moves, and the button data-bench="compute", which --peer-click presses after each
// change, as gpu_poor needs.
(() => {
  const setValue = (input, value) => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  };
  const fill = () => {
    const size = document.querySelector('input[placeholder="e.g. for llama-7b enter 7"]');
    const lengths = document.querySelectorAll('input[placeholder="?"]');
    const button = [...document.querySelectorAll('button')].find((b) => b.textContent.includes('Find Memory requirement'));
    if (!size || lengths.length < 2 || !button) return false;
    setValue(size, '7');
    setValue(lengths[0], '300');
    setValue(lengths[1], '1000');
    lengths[1].setAttribute('data-bench', 'context');
    button.setAttribute('data-bench', 'compute');
    // The press counts only once React has rendered the typed values and loaded its model
    // table: press on every frame until a figure shows, as an impatient learner would.
    const press = () => {
      button.click();
      const shown = [...document.querySelectorAll('span.font-bold')].some((span) => /\d/.test(span.textContent));
      if (!shown) requestAnimationFrame(press);
    };
    requestAnimationFrame(press);
    return true;
  };
  const observer = new MutationObserver(() => {
    if (fill()) observer.disconnect();
  });
  // React may have drawn the form already (its deferred script runs before DOMContentLoaded).
  document.addEventListener('DOMContentLoaded', () => {
    if (!fill()) observer.observe(document.body, { childList: true, subtree: true });
  });
})();
