// "Share the result": the picture of the standings and the race (made on the server), through the
// phone's own share sheet where it can share files (Web Share API); a download everywhere else.
//
// Whether to share is decided before anything is awaited: a click's default (the download) can
// only be stopped at once, so a phone that can share never gets the download too.
// The picture is light or dark as the page is (without JavaScript: light).
const link = document.querySelector('a.share-picture');
const probe = () => new File([''], 'three-thirteen.png', { type: 'image/png' });

function dark() {
  const chosen = document.documentElement.dataset.theme;
  return chosen ? chosen === 'dark' : window.matchMedia('(prefers-color-scheme: dark)').matches;
}

if (link) {
  link.addEventListener('click', () => {
    const url = new URL(link.href);
    url.searchParams.set('theme', dark() ? 'dark' : 'light');
    link.href = url.href;
  });
}

if (link && navigator.canShare && navigator.canShare({ files: [probe()] })) {
  link.addEventListener('click', (e) => {
    e.preventDefault();
    share().catch((err) => {
      if (err && err.name === 'AbortError') return;       // the player closed the share sheet
      window.location.assign(link.href);                   // could not share: download it after all
    });
  });
}

async function share() {
  const res = await fetch(link.href.replace('download=1', 'download=0'));
  if (!res.ok) throw new Error(`picture: ${res.status}`);
  const file = new File([await res.blob()], 'three-thirteen.png', { type: 'image/png' });
  await navigator.share({ files: [file], title: link.dataset.title });
}
