// An LMS page as LMSs embed scorm-again, for SCORM 1.2 or 2004: each launch gets a fresh run-time
// loaded with everything the LMS kept of the learner (interactions and objectives included, as an
// LMS's report reads them); every commit and the end store the record back. SetValue calls that
// the run-time refused are collected.
(function () {
  window.lmsRecord = null;
  window.lmsErrors = [];
  window.lmsEnded = 0;
  function keep(standard, api) {
    var cmi = api.renderCMIToJSONObject().cmi;
    var record = { interactions: cmi.interactions, objectives: cmi.objectives, suspend_data: cmi.suspend_data };
    if (standard === '1.2') {
      record.core = { lesson_status: cmi.core.lesson_status, exit: cmi.core.exit };
      record.student_preference = { language: cmi.student_preference.language };
    } else {
      record.completion_status = cmi.completion_status;
      record.success_status = cmi.success_status;
      record.exit = cmi.exit;
      record.learner_preference = { language: cmi.learner_preference.language };
    }
    window.lmsRecord = record;
  }
  /** Starts a session of the SCO in `standard` ('1.2' or '2004') with `record` (default: what the last one left). */
  window.launch = function (standard, record) {
    var twelve = standard === '1.2';
    var api = twelve ? new window.Scorm12API({ logLevel: 4 }) : new window.Scorm2004API({ logLevel: 4 });
    var start = JSON.parse(JSON.stringify(record || window.lmsRecord || {}));
    if (!twelve && start.exit === 'suspend') start.entry = 'resume';
    delete start.exit;
    api.loadFromJSON(start);
    api.on(twelve ? 'LMSSetValue' : 'SetValue', function (element, value) {
      var code = String(twelve ? api.LMSGetLastError() : api.GetLastError());
      if (code !== '0') window.lmsErrors.push([element, value, code]);
    });
    api.on(twelve ? 'LMSCommit' : 'Commit', function () { keep(standard, api); });
    api.on(twelve ? 'LMSFinish' : 'Terminate', function () { window.lmsEnded += 1; keep(standard, api); });
    delete window.API;
    delete window.API_1484_11;
    window[twelve ? 'API' : 'API_1484_11'] = api;
    keep(standard, api);
    document.getElementById('sco').src = '/sco/' + (twelve ? '12' : '2004') + '/index.html';
  };
})();
