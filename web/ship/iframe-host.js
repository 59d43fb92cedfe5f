/*
 * trainscope iframe host: include this one script on a page that embeds trainscope in an
 * <iframe data-trainscope-frame>. It sizes each such iframe to its content and re-dispatches
 * quiz scores as a `trainscope-score` DOM event on the iframe element (detail: {score, max,
 * scaled, passed, completed, answered, right, set, takeaways}), a takeaway the learner masters as
 * `trainscope-mastery` (detail: {takeaway}), and the quiz's xAPI statements as `trainscope-xapi`.
 *
 * Messages are accepted only from the window of a marked iframe (event.source), and, when the
 * iframe has data-trainscope-origin="https://…" (the documented snippet always sets it), only
 * from that origin; a score whose fields are out of shape or range is dropped. No third-party code.
 */
(function () {
  'use strict';
  var MAX_HEIGHT = 100000;
  /** More questions than any quiz has: a larger max is not a trainscope score. */
  var MAX_QUESTIONS = 1000;
  /** More takeaways than any bank has, and longer words than any takeaway's. */
  var MAX_TAKEAWAYS = 100;
  var MAX_TEXT = 2000;
  var MASTERY_STATES = ['not-started', 'practising', 'mastered'];

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

  function isCount(value, max) {
    return typeof value === 'number' && Math.floor(value) === value && value >= 0 && value <= max;
  }

  /**
   * A score message as the widget sends it, or null. Every field is checked for type and range
   * and against the others (score and answered within max, scaled = score / max, passed only
   * with a boolean or null, completed only when every question is answered): a frame that
   * forges or garbles a score is not relayed.
   */
  function checkedScore(data) {
    // Points come in halves: ½ for a question right at a later try (docs/quiz.md, "Scoring").
    if (!isCount(data.max, MAX_QUESTIONS) || typeof data.score !== 'number' || !isCount(data.score * 2, data.max * 2)) return null;
    if (!isCount(data.answered, data.max) || data.score > data.answered) return null;
    if (data.right !== undefined && (!isCount(data.right, data.answered) || data.right < data.score)) return null;
    var scaled = data.max > 0 ? data.score / data.max : 0;
    if (!isFiniteNumber(data.scaled) || Math.abs(data.scaled - scaled) > 1e-9) return null;
    if (data.passed !== null && typeof data.passed !== 'boolean') return null;
    if (typeof data.completed !== 'boolean' || data.completed !== (data.max > 0 && data.answered === data.max)) return null;
    var detail = {
      score: data.score,
      max: data.max,
      scaled: scaled,
      passed: data.passed,
      completed: data.completed,
      answered: data.answered,
    };
    if (data.right !== undefined) detail.right = data.right;
    // The questions the score covers (docs/quiz.md, "Sets"); a frame of an earlier version sends none.
    if (data.set === 'lesson' || data.set === 'deeper' || data.set === 'all') detail.set = data.set;
    // Each takeaway's progress (docs/quiz.md, "Practice and mastery"); dropped whole if any row is off.
    var takeaways = checkedTakeaways(data.takeaways);
    if (takeaways) detail.takeaways = takeaways;
    return detail;
  }

  /** One takeaway's progress as the quiz reports it, copied field by field, or null. */
  function checkedTakeaway(row) {
    if (!row || typeof row !== 'object') return null;
    if (typeof row.id !== 'string' || row.id === '' || row.id.length > MAX_TEXT) return null;
    if (typeof row.title !== 'string' || row.title.length > MAX_TEXT) return null;
    if (!isCount(row.items, MAX_QUESTIONS) || !isCount(row.firstTryCorrect, row.items)) return null;
    if (MASTERY_STATES.indexOf(row.mastery) < 0) return null;
    return { id: row.id, title: row.title, items: row.items, firstTryCorrect: row.firstTryCorrect, mastery: row.mastery };
  }

  function checkedTakeaways(rows) {
    if (!Array.isArray(rows) || rows.length > MAX_TAKEAWAYS) return null;
    var copies = [];
    for (var i = 0; i < rows.length; i += 1) {
      var copy = checkedTakeaway(rows[i]);
      if (!copy) return null;
      copies.push(copy);
    }
    return copies;
  }

  /**
   * An xAPI statement as the widget makes it (web/ship/xapi.ts), or null: an id, a timestamp, an
   * ADL verb and an activity. A copy through JSON, so the host gets plain data and no getters.
   */
  function checkedStatement(statement) {
    if (!statement || typeof statement !== 'object') return null;
    var copy;
    try {
      copy = JSON.parse(JSON.stringify(statement));
    } catch (error) {
      return null;
    }
    if (typeof copy.id !== 'string' || typeof copy.timestamp !== 'string') return null;
    if (!copy.verb || typeof copy.verb.id !== 'string' || copy.verb.id.indexOf('http://adlnet.gov/expapi/verbs/') !== 0) return null;
    if (!copy.object || copy.object.objectType !== 'Activity' || typeof copy.object.id !== 'string') return null;
    return copy;
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
      var detail = checkedScore(data);
      if (detail) frame.dispatchEvent(new CustomEvent('trainscope-score', { bubbles: true, detail: detail }));
    } else if (data.type === 'trainscope:mastery') {
      var takeaway = checkedTakeaway(data.takeaway);
      if (takeaway && takeaway.mastery === 'mastered') {
        frame.dispatchEvent(new CustomEvent('trainscope-mastery', { bubbles: true, detail: { takeaway: takeaway } }));
      }
    } else if (data.type === 'trainscope:xapi') {
      var statement = checkedStatement(data.statement);
      if (statement) frame.dispatchEvent(new CustomEvent('trainscope-xapi', { bubbles: true, detail: statement }));
    }
  });
})();
