/*
 * trainscope iframe host: include this one script on a page that embeds trainscope in an
 * <iframe data-trainscope-frame>. It sizes each such iframe to its content and re-dispatches
 * quiz scores as a `trainscope-score` DOM event on the iframe element (detail: {score, max,
 * scaled, passed, completed, answered}).
 *
 * Messages are accepted only from the window of a marked iframe (event.source), and, when the
 * iframe has data-trainscope-origin="https://…", only from that origin. No third-party code.
 */
(function () {
  'use strict';
  var MAX_HEIGHT = 100000;

  function frameFor(source) {
    var frames = document.querySelectorAll('iframe[data-trainscope-frame]');
    for (var i = 0; i < frames.length; i += 1) {
      if (frames[i].contentWindow === source) return frames[i];
    }
    return null;
  }

  function isFiniteNumber(value) {
    return typeof value === 'number' && isFinite(value);
  }

  window.addEventListener('message', function (event) {
    var data = event.data;
    if (!data || typeof data !== 'object' || typeof data.type !== 'string') return;
    if (data.type.indexOf('trainscope:') !== 0) return;
    var frame = frameFor(event.source);
    if (!frame) return;
    var expectedOrigin = frame.getAttribute('data-trainscope-origin');
    if (expectedOrigin && expectedOrigin !== event.origin) return;

    if (data.type === 'trainscope:height') {
      if (isFiniteNumber(data.height) && data.height > 0 && data.height < MAX_HEIGHT) {
        frame.style.height = Math.ceil(data.height) + 'px';
      }
    } else if (data.type === 'trainscope:score') {
      if (!isFiniteNumber(data.score) || !isFiniteNumber(data.max)) return;
      frame.dispatchEvent(new CustomEvent('trainscope-score', {
        bubbles: true,
        detail: {
          score: data.score,
          max: data.max,
          scaled: isFiniteNumber(data.scaled) ? data.scaled : (data.max > 0 ? data.score / data.max : 0),
          passed: typeof data.passed === 'boolean' ? data.passed : null,
          completed: data.completed === true,
          answered: isFiniteNumber(data.answered) ? data.answered : null
        }
      }));
    }
  });
})();
