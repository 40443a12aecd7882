// Every page: the dark/light toggle (remembered on this phone), the service worker that makes
// the app installable, keepAwake() for the pages used at the table, and the names of its standings
// and lists of games read whole (names.js; the sheet's page fits all of its names, sheet.js).
import { fitWords, wholeOnTap } from './names.js';

const root = document.documentElement;
const stored = localStorage.getItem('theme');
if (stored === 'dark' || stored === 'light') root.dataset.theme = stored;

function isDark() {
  if (root.dataset.theme) return root.dataset.theme === 'dark';
  return window.matchMedia('(prefers-color-scheme: dark)').matches;
}

const toggle = document.querySelector('.theme-toggle');
if (toggle) {
  toggle.hidden = false;
  toggle.setAttribute('aria-pressed', String(isDark()));
  toggle.addEventListener('click', () => {
    const next = isDark() ? 'light' : 'dark';
    root.dataset.theme = next;
    localStorage.setItem('theme', next);
    toggle.setAttribute('aria-pressed', String(next === 'dark'));
  });
}

// (and a round's blocks' names, and a page's title that names a player: "WWW…, your hand")
const LISTED = 'ol.standings bdi, ul.games bdi, .round-form fieldset.player > legend bdi, h1 bdi';
fitWords(LISTED);
window.addEventListener('resize', () => fitWords(LISTED));
for (const title of document.querySelectorAll('h1.names')) wholeOnTap(title);

// A new game is dated by this phone's own calendar, not the server's (UTC) one.
for (const today of document.querySelectorAll('input[name=today]')) {
  const now = new Date();
  today.value = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

// A setting the chosen game decides itself (Five Crowns' deck and card values) is not offered.
for (const game of document.querySelectorAll('form select[name=game]')) {
  const offer = () => {
    for (const field of game.form.querySelectorAll('[data-fixed-in]')) {
      field.hidden = field.dataset.fixedIn.split(' ').includes(game.value);
    }
  };
  game.addEventListener('change', offer);
  offer();
}

// Times are stored in UTC; show them as this phone's clock reads them.
for (const time of document.querySelectorAll('time[datetime]')) {
  const when = new Date(time.dateTime);
  if (!Number.isNaN(when.getTime())) {
    time.textContent = when.toLocaleString(document.documentElement.lang, { dateStyle: 'medium', timeStyle: 'short' });
  }
}

if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('/sw.js').catch(() => {});
}

// Keep the screen on while a game is open, where the browser can (Screen Wake Lock API).
export function keepAwake() {
  if (!('wakeLock' in navigator)) return;
  let lock = null;
  const ask = async () => {
    try {
      if (document.visibilityState === 'visible' && !lock) {
        lock = await navigator.wakeLock.request('screen');
        lock.addEventListener('release', () => { lock = null; });
      }
    } catch { lock = null; }
  };
  document.addEventListener('visibilitychange', ask);
  ask();
}

// The Undo offered right after a save goes away when its time is up, or as soon as the live sheet
// says the game's last save is another (a save or an Undo from any phone): withdrawUndo(mark).
// Its place stays, so nothing below it moves under a finger.
function withdraw(offer) {
  offer.classList.add('over');
  offer.setAttribute('aria-hidden', 'true');
  for (const button of offer.querySelectorAll('button')) button.disabled = true;
  offer.dispatchEvent(new Event('withdrawn'));
}

export function withdrawUndo(lastSave) {
  if (typeof lastSave !== 'string') return;
  for (const offer of document.querySelectorAll('form.undo-save:not(.over)')) {
    if (offer.dataset.lastSave !== lastSave) withdraw(offer);
  }
}

for (const offer of document.querySelectorAll('form.undo-save[data-seconds]')) {
  setTimeout(() => withdraw(offer), Number(offer.dataset.seconds) * 1000);
}

// A file field says "Choose a file" in the page's language, not the browser's: the field itself is
// hidden from sight (still there for the form and for assistive technology), and a button of the
// page's own opens it and names the file chosen. Without JavaScript the browser's own field shows.
for (const field of document.querySelectorAll('input[type=file][data-choose]')) {
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = field.dataset.choose;
  button.setAttribute('aria-hidden', 'true');     // the field keeps its label; this only opens it
  button.tabIndex = -1;
  const chosen = document.createElement('span');
  chosen.className = 'quiet file-chosen';
  chosen.textContent = field.dataset.none;
  field.classList.add('visually-hidden');
  field.after(button, chosen);
  button.addEventListener('click', () => field.click());
  field.addEventListener('change', () => { chosen.textContent = field.files[0]?.name || field.dataset.none; });
}

// The new-game form's first-dealer list names the players typed, in seating order, and offers only
// as many places as there are players: the server counts them as this does (blank seats skipped,
// scorer.gamefile.new_game), so the option for the n-th name is the n-th player. A place whose name
// goes is no longer offered; chosen, the list goes back to the draw. Without JavaScript: "Seat n".
const newGameForm = document.querySelector('form.new-game');
const dealerList = newGameForm?.elements.first_dealer;
if (dealerList) {
  const seats = [...newGameForm.querySelectorAll('.seat input')];
  const places = [...dealerList.options].filter((option) => option.value !== 'draw');
  for (const option of places) option.dataset.seat = option.textContent;
  const name = () => {
    const names = seats.map((seat) => seat.value.trim()).filter(Boolean);
    for (const option of places) {
      const player = names[Number(option.value)];
      option.textContent = player ?? option.dataset.seat;
      option.hidden = option.disabled = player === undefined;
    }
    if (dealerList.selectedOptions[0]?.disabled) dealerList.value = 'draw';
  };
  for (const seat of seats) seat.addEventListener('input', name);
  name();
}
