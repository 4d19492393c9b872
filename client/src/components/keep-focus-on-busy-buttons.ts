/*
 * A button disabled while it has the focus (Mantine's `loading`: Send while it sends, Video call
 * while the server finds an agent) loses it: the browser moves the focus to the page's body, and
 * a keyboard user who reads the outcome then starts again from the top of the page. Here such a
 * button takes the focus back once it is enabled again, when nothing else took it meanwhile (the
 * focus still on the body: a field the form focused for its problem, a dialog, the user's own
 * click elsewhere win). One listener for every button of the app; one button watched at a time,
 * for at most WATCH_MS.
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
      if (button.isConnected && (now === null || now === doc.body)) button.focus();
    });
    observer.observe(button, { attributes: true, attributeFilter: ['disabled'] });
    const timer = setTimeout(stop, WATCH_MS);
    stopWatching = () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  };
  // Anything focused meanwhile (a field, a dialog, the user's Tab) ends the watch.
  const onFocusIn = (event: FocusEvent) => {
    if (stopWatching !== null && event.target !== doc.body) stop();
  };
  doc.addEventListener('focusout', onFocusOut);
  doc.addEventListener('focusin', onFocusIn);
  return () => {
    stop();
    doc.removeEventListener('focusout', onFocusOut);
    doc.removeEventListener('focusin', onFocusIn);
  };
}
