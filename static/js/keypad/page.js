// What the page hands the keypad (templates/games/_picker_data.html): data blocks read as JSON (not
// run as script) and its words in the page's language (web/i18n.py); and how the keypad makes an element.
import { sayer } from '../words.js';

export function loadJSON(id) {
  const node = typeof document !== 'undefined' && document.getElementById(id);
  return node ? JSON.parse(node.textContent) : null;
}

// The page's words, in its language (one say() for every page's words: ../words.js).
export const say = sayer(loadJSON('picker-words') || {});

export function el(tag, attrs = {}, text = '') {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}
