// Reading cards as a table writes them: scorer/reading.py's read(), step for step, on the tables the
// page hands over as JSON (templates/games/_picker_data.html), so the browser and the server read
// the same cards and refuse the same text with the same words. tests/test_cards.py compares them.

// A word as the tables write it: upper case, without accents or emoji variation selectors.
export function fold(text) {
  return text.toUpperCase().normalize('NFD').replace(/\p{Mn}/gu, '');
}

// Text quoted in a message, cut to a readable length (in characters, as Python counts them).
function short(text, most = 20) {
  const chars = Array.from(text);
  return chars.length <= most ? text : `${chars.slice(0, most).join('')}…`;
}

const has = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (has(values, name) ? values[name] : whole));
}

// The reader of one page: read(text) gives each card's worth of text as {typed, card, problem},
// card in canonical text ('10H', 'JK') or null with the problem in the page's words.
export function reader(tables) {
  const separators = new RegExp(tables.separators, 'u');
  const jokers = new Set(tables.jokers);
  const wildWords = new Set(tables.wildWords);
  const joining = new Set(tables.joining);
  const say = tables.messages;
  const rankOf = (folded) => (has(tables.rankLetters, folded) ? tables.rankLetters[folded]
    : has(tables.rankWords, folded) ? tables.rankWords[folded] : null);
  const cardText = (rank, suit) => tables.rankText[rank] + suit;

  function readWord(word, folded) {
    const text = short(word);
    if (jokers.has(folded)) return { typed: word, card: 'JK', problem: '' };
    const refuse = (template, values = {}) => ({ typed: word, card: null, problem: fill(template, { text, ...values }) });
    if (wildWords.has(folded)) return refuse(say.wild);
    if (joining.has(folded)) return refuse(say.joining);
    if (has(tables.suitWords, folded)) return refuse(say.suitWord);
    const rank = rankOf(folded);
    if (rank !== null) return refuse(say.noSuit, { choices: tables.choices[rank] });
    const chars = Array.from(folded);
    const head = chars.slice(0, -1).join('');
    const suit = chars.length ? chars[chars.length - 1] : '';
    if (has(tables.symbols, suit) && rankOf(head) !== null) return { typed: word, card: cardText(rankOf(head), tables.symbols[suit]), problem: '' };
    if (has(tables.suitLetters, suit) && has(tables.rankLetters, head)) {
      return { typed: word, card: cardText(tables.rankLetters[head], tables.suitLetters[suit]), problem: '' };
    }
    if (has(tables.rankLetters, head) && /^[A-Z]$/.test(suit)) {
      const typed = Array.from(word);
      return refuse(say.suitLetter, { letter: typed[typed.length - 1] });
    }
    return refuse(say.notCard);
  }

  function readAt(words, i) {
    const folded = fold(words[i]);
    const rank = rankOf(folded);
    if (rank !== null) {
      let ahead = words.slice(i + 1, i + 3).map(fold);
      let length = 2;
      if (ahead.length && joining.has(ahead[0])) { ahead = ahead.slice(1); length = 3; }
      if (ahead.length && has(tables.suitWords, ahead[0])) {
        return [length, { typed: words.slice(i, i + length).join(' '), card: cardText(rank, tables.suitWords[ahead[0]]), problem: '' }];
      }
    }
    return [1, readWord(words[i], folded)];
  }

  return function read(text) {
    const words = (text || '').split(separators).filter(Boolean);
    const out = [];
    for (let i = 0; i < words.length;) {
      const [taken, reading] = readAt(words, i);
      out.push(reading);
      i += taken;
    }
    return out;
  };
}
