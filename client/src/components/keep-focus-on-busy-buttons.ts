/*
 * A button disabled while it has the focus (Mantine's `loading`: Send while it sends, Video call
 * while the server finds an agent) loses it: the browser moves the focus to the page's body, and
 * a keyboard user who reads the outcome then starts again from the top of the page. Here such a
 * button takes the focus back once it is enabled again, when nothing else took it meanwhile (the
 * focus still on the body: a field the form focused for its problem, a dialog, the user's own
 * click elsewhere win), and the page does not scroll to it. One listener for every button of the
 * app; one button watched at a time, for at most WATCH_MS, and not past the user's next click or
 * key.
 */
const WATCH_MS = 120_000;

export function keepFocusOnBusyButtons(doc: Document): () => void {
  let stopWatching: (() => void) | null = null;
  const stop = () => {
    stopWatching?.();
    stopWatching = null;
  };
  const onFocusOut = (event: FocusEvent) => {
    const button = event.target;
    // The browser's own move (to nowhere), of a button that is disabled now: not a Tab or a click.
    if (!(button instanceof HTMLButtonElement) || event.relatedTarget !== null) return;
    if (!button.disabled) return;
    stop();
    const observer = new MutationObserver(() => {
      if (button.disabled) return;
      stop();
      const now = doc.activeElement;
      // Where the page is: the user may have scrolled on to read meanwhile.
      if (button.isConnected && (now === null || now === doc.body))
        button.focus({ preventScroll: true });
    });
    observer.observe(button, { attributes: true, attributeFilter: ['disabled'] });
    const timer = setTimeout(stop, WATCH_MS);
    stopWatching = () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  };
  // Anything focused meanwhile (a field, a dialog, the user's Tab) ends the watch, and so does
  // the user's own click or key (a click on text focuses nothing): the user has moved on.
  const onFocusIn = (event: FocusEvent) => {
    if (stopWatching !== null && event.target !== doc.body) stop();
  };
  const onUser = () => {
    if (stopWatching !== null) stop();
  };
  doc.addEventListener('focusout', onFocusOut);
  doc.addEventListener('focusin', onFocusIn);
  doc.addEventListener('pointerdown', onUser, true);
  doc.addEventListener('keydown', onUser, true);
  return () => {
    stop();
    doc.removeEventListener('focusout', onFocusOut);
    doc.removeEventListener('focusin', onFocusIn);
    doc.removeEventListener('pointerdown', onUser, true);
    doc.removeEventListener('keydown', onUser, true);
  };
}
