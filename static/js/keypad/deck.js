// The game's cards: how a text is read and a card written, by the tables of scorer/cards.py handed
// over by the page as JSON, so the browser and the server read the same cards; and the deck's keys.
import { reader } from '../cards.js';
import { loadJSON } from './page.js';

const TABLES = loadJSON('card-tables');
const SYMBOL = TABLES ? TABLES.suitSymbol : { S: '♠', H: '♥', D: '♦', C: '♣' };
const read = TABLES ? reader(TABLES) : () => [];
// The keys of the game's deck (web/templating.keypad_deck, from scorer/rules.py): its suits as
// [letter, symbol, word] and its ranks ('A' to 'K'; '3' to 'K' and a fifth suit in Five Crowns).
export const DECK = loadJSON('card-deck') || { suits: [], ranks: [] };

// The keys of another game's deck from now on (the audit's game field: keypad_games).
export function useDeck({ suits, ranks }) {
  Object.assign(DECK, { suits, ranks });
}

// The cards of a text in canonical text ('10H', 'QS', 'JK'), and what is none of them, each with
// the problem in the page's words (the server's own refusal, scorer/reading.py).
export function readCards(text) {
  const readings = read(text);
  return { cards: readings.filter((r) => r.card).map((r) => r.card), bad: readings.filter((r) => !r.card) };
}

export function pretty(card) {
  if (card === 'JK') return '🃏';
  const suit = SYMBOL[card.slice(-1)];
  return suit ? card.slice(0, -1) + suit : card;       // '7': a wild standing in a set plays as a rank
}

export function suitClass(card) {
  return card === 'JK' ? 'suit-joker' : `suit-${card.slice(-1).toLowerCase()}`;
}
