// The pages of a game made here, drawn ahead: the page whose scorer is already running (the
// new-game page as it makes the game, the round page as it saves) draws the sheet the phone goes
// to next, and the page of the round to enter after it, and keeps them (drawn:<id>); the next
// page shows its copy at once instead of starting the phone's Python again, which takes seconds
// on every page (docs/speed.md). A copy is for the game as it was drawn, in that language: once
// the game changes it is drawn again.
import { PAGE } from './page.js';
import { ask } from './scorer.js';
import { keys, read, write } from './store.js';

// What a copy was drawn from: the game, its colours and the page's language.
const drawnFrom = (data) => JSON.stringify([data.game, data.colours, PAGE.language]);

// The page (the sheet: no number; a round's) of a game made here as web/phone.py made_page draws it.
const drawPage = (data, id, number) => ask('made_page', { game: data.game, game_id: id, number, colours: data.colours });

// Draw the sheet of game `id` (data as kept) and the page of its next round, and keep them.
export async function drawAhead(data, id) {
  const sheet = await drawPage(data, id, null);
  if (!sheet.ok) return;
  const pages = { sheet: sheet.ok };
  if (sheet.ok.next) {
    const round = await drawPage(data, id, sheet.ok.next);
    if (round.ok) pages[sheet.ok.next] = round.ok;
  }
  await write(keys.drawn(id), { from: drawnFrom(data), pages });
}

// A page of game `id` (null: its sheet), drawn by the phone's scorer: the copy drawn ahead if it
// is of the game as kept, else drawn now.
export async function drawnPage(data, id, number) {
  const ahead = await read(keys.drawn(id), null);
  const copy = ahead && ahead.from === drawnFrom(data) && ahead.pages[number ?? 'sheet'];
  return copy ? { ok: copy } : drawPage(data, id, number);
}
