// The SCO inside dist/trainscope-scorm12.zip: the widget, reporting to the LMS. In an LMS it
// keeps quiz progress in cmi.suspend_data and reports the score and status; opened on its own
// it is the plain offline page (progress in localStorage where allowed). The start is sco-entry.ts.
import { findScormApi, ScormSession } from './scorm';
import { runSco } from './sco-entry';

runSco(() => new ScormSession(findScormApi(window)));
