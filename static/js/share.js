// "Share the result": the picture of the standings and the race (made on the server), through the
// phone's own share sheet where it can share files (Web Share API); a download everywhere else.
const link = document.querySelector('a.share-picture');
if (link && navigator.canShare) {
  link.addEventListener('click', async (e) => {
    try {
      const res = await fetch(link.href.replace('download=1', 'download=0'));
      const file = new File([await res.blob()], 'three-thirteen.png', { type: 'image/png' });
      if (!navigator.canShare({ files: [file] })) return;      // the link downloads it instead
      e.preventDefault();
      await navigator.share({ files: [file], title: link.dataset.title });
    } catch (err) {
      // shared, cancelled, or refused: nothing to undo
    }
  });
}
