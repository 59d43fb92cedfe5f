// A SCORM 1.2 API that records every call and keeps values like an LMS would (RTE §3.2).
(function () {
  var data = { 'cmi.core.lesson_status': 'not attempted', 'cmi.suspend_data': '', 'cmi.student_data.mastery_score': '' };
  var initialized = false;
  window.lmsCalls = [];
  function record(name, args, result) { window.lmsCalls.push([name].concat(args)); return result; }
  window.API = {
    LMSInitialize: function (p) { initialized = true; return record('LMSInitialize', [p], 'true'); },
    LMSFinish: function (p) { var was = initialized; initialized = false; return record('LMSFinish', [p], was ? 'true' : 'false'); },
    LMSGetValue: function (e) { return record('LMSGetValue', [e], initialized ? (data[e] || '') : ''); },
    LMSSetValue: function (e, v) {
      if (!initialized) return record('LMSSetValue', [e, v], 'false');
      if (e === 'cmi.suspend_data' && String(v).length > 4096) return record('LMSSetValue', [e, v], 'false');
      data[e] = String(v);
      return record('LMSSetValue', [e, v], 'true');
    },
    LMSCommit: function (p) { return record('LMSCommit', [p], initialized ? 'true' : 'false'); },
    LMSGetLastError: function () { return '0'; },
    LMSGetErrorString: function () { return 'No error'; },
    LMSGetDiagnostic: function () { return ''; }
  };
})();
