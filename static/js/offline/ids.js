// The id of a game made on this phone: of the server's own kind, in the format the server decides
// (web/store/database.py GAME_ID: its alphabet, its length, its pattern), given to the page as data
// (the new-game page's data-game-id). No knowledge of its own: only how to draw characters.

// `length` characters of `alphabet`, each drawn at random (uniformly: bytes past the last whole
// round of the alphabet are drawn again).
export function newId({ alphabet, length }) {
  const whole = 256 - (256 % alphabet.length);
  let id = '';
  while (id.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length))) {
      if (byte < whole && id.length < length) id += alphabet[byte % alphabet.length];
    }
  }
  return id;
}

