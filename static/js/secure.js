// Offline play needs a secure context (HTTPS, or an address on this very computer) and a service
// worker. Without either, the scorekeeper's line that says so (just before this script, hidden) is
// shown: run while the page is parsed, before anything below it is drawn, so nothing moves.
const line = document.currentScript && document.currentScript.previousElementSibling;
if (line && (!window.isSecureContext || !('serviceWorker' in navigator))) line.hidden = false;
