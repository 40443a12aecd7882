// How the players' columns share a sheet's width (issue 48), decided here for the screen (sheet.js)
// and mirrored for paper by web/export.py shares(), which tests/test_shares.py holds to this one on
// the same cases: each column needs the width of its name's longest word (or its figures); while
// the widest needs more than an even share of what the others leave, it has its need, and the rest
// share what is left alike. `needs` and `room` in any one unit (px on the screen, mm on paper); the
// widths in the order of `needs`. Where the needs pass the room, each has its need (the screen's box
// then scrolls; paper scales the needs down first).
export function shares(needs, room) {
  let rest = room;
  let left = needs.length;
  const held = new Set();
  const order = needs.map((need, i) => i).sort((a, b) => needs[b] - needs[a] || a - b);
  for (const i of order) {
    if (left === 1 || needs[i] <= rest / left) break;
    held.add(i);
    rest -= needs[i];
    left -= 1;
  }
  return needs.map((need, i) => (held.has(i) ? need : Math.max(need, rest / left)));
}
