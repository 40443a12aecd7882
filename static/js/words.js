// A page's words, in its language, given by the server (data-* attributes or a JSON block): say(key,
// values) is the word, its {names} filled in from values (a name not given stays as it is written).
// A word the page does not give is said as nothing: a page without it has nothing to say there.
// The keypad (picker.js) and the phone's pages (offline/page.js) speak through it alike.
export function sayer(words) {
  return (key, values = {}) => (words[key] ?? '').replace(/\{(\w+)\}/g, (m, name) => (name in values ? String(values[name]) : m));
}
