// The print page's Print button: the browser's own print dialog (without script, its menu does it),
// offered once the print's type has loaded (web/export.py PRINT_FONTS, the type its names were
// measured in), so the sheet prints as it was laid out.
const button = document.querySelector('.print-now');
if (button) {
  document.fonts.ready.then(() => {
    button.hidden = false;
    button.addEventListener('click', () => window.print());
  });
}
