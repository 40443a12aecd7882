// A page's words, in its language, given by the server (data-* attributes or a JSON block): say(key,
// values) is the word, its {names} filled in from values (a name not given stays as it is written).
// A word the page does not give is said as nothing: a page without it has nothing to say there.
// The keypad (picker.js) and the phone's pages (offline/page.js) speak through it alike.
// A counted word is a list of its forms, one for each count (web/templating.py counted()): the one
// for values.count is said, the last for a larger count.
export function sayer(words) {
  const form = (word, count) => (Array.isArray(word) ? word[Math.min(Number(count) || 0, word.length - 1)] : word);
  return (key, values = {}) => (form(words[key], values.count) ?? '').replace(/\{(\w+)\}/g, (m, name) => (name in values ? String(values[name]) : m));
}
