// A hand's minimal penalty, drawn by the server with the result pages' own template
// (/audit/preview), or without a network by the scorer on this phone (offered by
// offline/round-page.js through offline/preview.js), from the same template.
import { previewHere } from '../offline/preview.js';
import { pretty } from './deck.js';
import { say } from './page.js';

async function previewHtml(url) {
  let res = null;
  try {
    res = await fetch(url);
  } catch (err) {
    const html = await previewHere(Object.fromEntries(new URL(url, window.location.href).searchParams));
    if (html) return html;
    throw err;
  }
  if (!res.ok && res.status !== 400) throw new Error(`preview: ${res.status}`);
  return res.text();
}

// The question for a hand's cards in a round of the game (out: its player went out).
export function previewUrl(info, cards, out) {
  return `${info.previewUrl}?cards=${encodeURIComponent(cards.map(pretty).join(' '))}&round=${info.round}`
    + `&game_id=${encodeURIComponent(info.game)}${out ? '&out=1' : ''}`;
}

// The preview's box (its penalty in data-penalty), or nothing.
export async function previewBox(url) {
  return document.createRange().createContextualFragment(await previewHtml(url)).firstElementChild;
}

// The words of the keypad's top row for the penalty a box gives, if it gives one.
export function penaltyOf(box) {
  return box?.dataset.penalty ? say('penalty', { points: box.dataset.penalty }) : '';
}
