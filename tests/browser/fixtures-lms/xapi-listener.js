// What a host does with the widget's statements: here it keeps them (a real host would POST
// them to its LRS, adding the learner as actor), with the element the event reached the page from.
window.statements = [];
window.scores = [];
window.answers = [];
document.addEventListener('trainscope-answer', function (event) {
  window.answers.push(event.detail);
});
document.addEventListener('trainscope-xapi', function (event) {
  window.statements.push({ target: event.target.tagName.toLowerCase(), statement: event.detail });
});
document.addEventListener('trainscope-score', function (event) {
  window.scores.push(event.detail);
});
