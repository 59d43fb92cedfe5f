// An LMS page as LMSs embed scorm-again: each launch gets a fresh SCORM 1.2 run-time
// (window.API) loaded with the learner's record from earlier sessions; every commit and the
// finish store the record back, as an LMS keeps it between sessions. Calls are counted.
(function () {
  window.lmsRecord = {};
  window.lmsCommits = 0;
  window.lmsFinished = 0;
  window.lmsSets = [];
  function keep(api) {
    var cmi = api.renderCMIToJSONObject().cmi;
    window.lmsRecord = {
      core: {
        lesson_status: cmi.core.lesson_status,
        score: { raw: cmi.core.score.raw, min: cmi.core.score.min, max: cmi.core.score.max },
        session_time: cmi.core.session_time,
        exit: cmi.core.exit
      },
      suspend_data: cmi.suspend_data,
      student_data: { mastery_score: cmi.student_data.mastery_score }
    };
  }
  /** Starts a new session of the SCO with `record` (default: what the last session left). */
  window.launch = function (record) {
    var api = new window.Scorm12API({ logLevel: 4 });
    var start = record || window.lmsRecord;
    var load = { core: { lesson_status: (start.core && start.core.lesson_status) || 'not attempted' }, suspend_data: start.suspend_data || '' };
    if (start.core && start.core.score && start.core.score.raw) load.core.score = { raw: start.core.score.raw, min: start.core.score.min || '0', max: start.core.score.max || '100' };
    if (start.student_data && start.student_data.mastery_score) load.student_data = { mastery_score: start.student_data.mastery_score };
    api.loadFromJSON(load);
    api.on('LMSCommit', function () { window.lmsCommits += 1; keep(api); });
    api.on('LMSSetValue', function (element, value) { window.lmsSets.push([element, value]); });
    api.on('LMSFinish', function () { window.lmsFinished += 1; keep(api); });
    window.API = api;
    keep(api);
    document.getElementById('sco').src = '/sco/index.html';
  };
})();
