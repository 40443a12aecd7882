// The print page's Print button: the browser's own print dialog (without script, its menu does it),
// offered once the print's type has loaded (web/export.py PRINT_FONTS, the type its names were
// measured in; its stylesheets asked for here, data-fonts, so that a network that does not answer
// holds neither the page nor this script), so the sheet prints as it was laid out; or, where the
// type did not come (a network that failed, or that does not answer within the server's
// data-wait-ms: web/templating.py PRINT_TYPE_WAIT_MS), with the measured headings set
// FALLBACK_WIDER smaller (print.css --fallback-type): the fallback type (DejaVu Sans, as browsers on
// Linux have it) sets Latin up to 10 % wider than Noto Sans, its bold up to 16 % (web/export.py
// measured with that factor before it printed in Noto).
export const FALLBACK_WIDER = 1.16;
const PRINT_TYPE = 'Noto Sans';

const button = document.querySelector('.print-now');
const root = document.documentElement;
const typeLoaded = () => [...document.fonts].some((face) => face.family.replace(/["']/g, '') === PRINT_TYPE && face.status === 'loaded');
function offer() {
  if (!button.hidden) return;
  if (!typeLoaded()) root.style.setProperty('--fallback-type', String(1 / FALLBACK_WIDER));
  button.hidden = false;
}
if (button) {
  button.addEventListener('click', () => window.print());
  const sheets = JSON.parse(button.dataset.fonts || '[]').map((href) => new Promise((done) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.onload = link.onerror = done;
    document.head.append(link);
  }));
  // the stylesheets in, its regular and bold asked for (a failed one rejects), then whatever else the page uses
  Promise.all(sheets).then(() => Promise.all([400, 700].map((weight) => document.fonts.load(`${weight} 1em "${PRINT_TYPE}"`))))
    .catch(() => {}).then(() => document.fonts.ready).then(offer);
  setTimeout(offer, Number(button.dataset.waitMs));
  // the type come after all: the headings as measured again
  document.fonts.addEventListener('loadingdone', () => { if (typeLoaded()) root.style.removeProperty('--fallback-type'); });
}
