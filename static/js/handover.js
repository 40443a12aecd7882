// The scorekeeper link carries the edit key after '#', which browsers never send to a server:
// put it in the form, take it out of the address bar, and post it (once, and not after an error).
const form = document.querySelector('form.handover');
const key = decodeURIComponent(window.location.hash.slice(1));
if (form && key) {
  history.replaceState(null, '', window.location.pathname);
  form.querySelector('input[name=key]').value = key;
  if (!form.querySelector('[aria-invalid=true]')) form.requestSubmit();
}
