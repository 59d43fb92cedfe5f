// An LMS page as LMSs embed scorm-again's SCORM 2004 run-time: each launch gets a fresh
// window.API_1484_11 loaded with the learner's record from earlier sessions (cmi.entry "resume"
// after a suspend, as RTE 4.2.8 has it); every Commit and the Terminate store the record back.
(function () {
  window.lmsRecord = {};
  window.lmsCommits = 0;
  window.lmsTerminated = 0;
  window.lmsSets = [];
  window.lmsErrors = [];
  function keep(api) {
    var cmi = api.renderCMIToJSONObject().cmi;
    window.lmsRecord = {
      completion_status: cmi.completion_status,
      success_status: cmi.success_status,
      score: { scaled: cmi.score.scaled, raw: cmi.score.raw, min: cmi.score.min, max: cmi.score.max },
      location: cmi.location,
      suspend_data: cmi.suspend_data,
      session_time: cmi.session_time,
      exit: cmi.exit,
      scaled_passing_score: cmi.scaled_passing_score
    };
  }
  /** Starts a new session of the SCO with `record` (default: what the last session left). */
  window.launch = function (record) {
    var api = new window.Scorm2004API({ logLevel: 4 });
    var start = record || window.lmsRecord;
    var load = {
      completion_status: start.completion_status || 'unknown',
      success_status: start.success_status || 'unknown',
      suspend_data: start.suspend_data || '',
      location: start.location || '',
      entry: start.exit === 'suspend' ? 'resume' : 'ab-initio'
    };
    if (start.score && start.score.scaled) load.score = start.score;
    if (start.scaled_passing_score) load.scaled_passing_score = start.scaled_passing_score;
    api.loadFromJSON(load);
    api.on('Commit', function () { window.lmsCommits += 1; keep(api); });
    api.on('SetValue', function (element, value) {
      window.lmsSets.push([element, value]);
      if (api.GetLastError() !== '0' && api.GetLastError() !== 0) window.lmsErrors.push([element, value, String(api.GetLastError())]);
    });
    api.on('Terminate', function () { window.lmsTerminated += 1; keep(api); });
    window.API_1484_11 = api;
    keep(api);
    document.getElementById('sco').src = '/sco/index.html';
  };
})();
