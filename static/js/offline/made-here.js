// The page of a game made on this phone (made_here.html, kept under each of its addresses): its
// sheet or a round's page, drawn by the phone's scorer with the server's partials (web/phone.py
// made_page), or its copy drawn ahead by the page before (offline/ahead.js).
import { drawnPage } from './ahead.js';
import { PAGE, languagesLeadHere, say } from './page.js';
import { fillFromPhone } from './round-page.js';
import { madeHere } from './standing.js';
import { kept, keys, read } from './store.js';
import { moveTo } from './sync.js';

// Draw it: false when this phone holds no such game (or it went to the server under a new id).
export async function drawMadeHere() {
  const { box, game } = PAGE;
  const data = kept() ? await read(keys.game(game), null) : null;
  if (data && data.moved_to) { moveTo(data.moved_to); return false; }    // sent, under a new id
  const answer = data && await drawnPage(data, game, roundNumber());
  if (!answer || !answer.ok) {
    box.querySelector('.offline-line').textContent = say('missing');
    box.classList.add('warning');
    return false;
  }
  madeHere(data.made, data.refused);
  document.getElementById('made-here').innerHTML = answer.ok.above;
  document.getElementById('made-here-below').innerHTML = answer.ok.below;
  document.title = [answer.ok.title, ...document.title.split(' · ').slice(1)].join(' · ');
  languagesLeadHere();
  const form = document.querySelector('form.round-form');
  if (form) {
    document.body.classList.add('entry');
    const link = document.createElement('a');
    link.href = PAGE.urls.sheet;
    link.textContent = say('sheetWord');
    document.querySelector('header nav').prepend(link);
    await fillFromPhone(form, roundNumber());
    await import('../picker.js');                 // it reads the form as it starts: drawn first
  }
  return true;
}

function roundNumber() {
  const n = Number(window.location.pathname.split('/')[4]);
  return Number.isInteger(n) && n > 0 ? n : null;
}
