// The SCO inside dist/trainscope-scorm2004.zip: the widget, reporting to a SCORM 2004 LMS
// (score, completion, success, suspend data, location). Opened on its own it is the plain
// offline page (progress in localStorage where allowed). The start is sco-entry.ts.
import { findScorm2004Api, Scorm2004Session } from './scorm2004';
import { runSco } from './sco-entry';

runSco(() => new Scorm2004Session(findScorm2004Api(window)));
