// The preview of a hand drawn on this phone without a network: the round page (offline/round-page.js)
// offers its scorer here, and the keypad (picker.js) asks when the server does not answer. Both
// import this one module, so neither needs the other, nor a global.
let draw = null;

// The round page's way to draw a preview from the game kept here (null when it cannot).
export function offerPreview(drawer) { draw = drawer; }

// The preview's HTML for these query arguments, drawn here; null when no page offered one.
export async function previewHere(args) { return draw ? draw(args) : null; }
