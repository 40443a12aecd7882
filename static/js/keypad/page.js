// What the page hands the keypad (templates/games/_picker_data.html): data blocks read as JSON (not
// run as script) and its words in the page's language (web/i18n.py); and how the keypad makes an element.
export function loadJSON(id) {
  const node = typeof document !== 'undefined' && document.getElementById(id);
  return node ? JSON.parse(node.textContent) : null;
}

// The page's words, in its language; the key itself if one is missing.
const WORDS = loadJSON('picker-words') || {};
export function say(key, values = {}) {
  return (WORDS[key] || key).replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ''));
}

export function el(tag, attrs = {}, text = '') {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}
