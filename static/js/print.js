// The print page's Print button: the browser's own print dialog (without script, its menu does it).
const button = document.querySelector('.print-now');
if (button) {
  button.hidden = false;
  button.addEventListener('click', () => window.print());
}
