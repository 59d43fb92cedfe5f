// The course pages the benchmarks measure the element on, as a course author writes them: served
// beside dist/ at these paths (serveDirectory's `extra`), by page_bench.mjs and first_ab.mjs alike.

const coursePage = (elements) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>A course page</title><link rel="icon" href="data:,"><script src="/embed/trainscope-widget.js" defer></script></head>
<body><main><h1>Week 3: training at scale</h1><p>Read the lesson, then try the simulation.</p>
${elements}
</main></body></html>`;

export const COURSE_PAGES = {
  '/bench/one-element.html': { type: 'text/html; charset=utf-8', body: coursePage('<trainscope-widget></trainscope-widget>') },
  '/bench/two-elements.html': {
    type: 'text/html; charset=utf-8',
    body: coursePage('<trainscope-widget sections="memory quiz"></trainscope-widget>\n<h2>How long does it take?</h2>\n<trainscope-widget preset="llama3-405b" sections="time"></trainscope-widget>'),
  },
};
