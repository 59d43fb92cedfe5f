// dist/embed/trainscope-widget.js: the one script a course page loads to get <trainscope-widget>.
import { defineTrainscopeWidget } from './element';

defineTrainscopeWidget();
