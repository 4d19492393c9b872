/*
 * After a submit the page itself finds wrong, the focus goes to the first field with a problem,
 * as a browser's own validation does (our forms are `noValidate`: their messages are ours, under
 * each field, tied to it by Mantine's aria-describedby). Before, most forms left the focus on
 * Send: a keyboard user had to find the field, and a screen reader said nothing of the messages.
 *
 * One listener for every form of the app: a field with a problem is one Mantine marks
 * `aria-invalid` from its `error`. It acts only when the submit's own handler marked a field
 * (an `aria-invalid` set while it ran): a message left from an earlier try that the form clears
 * after its request moves nothing, nor does a server's answer that comes later, so the focus never
 * jumps while the user types elsewhere. Nor does it move when the form moved it itself (the house
 * useForm in a frame, a form that focuses its fieldset): it waits a frame and a task, and leaves
 * the focus wherever it is no longer where it was when the submit began.
 */
export function focusFirstInvalidOnSubmit(doc: Document): () => void {
  const onSubmit = (event: Event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    // In the capture phase: before the form's own handler runs (and maybe moves the focus).
    const focused = doc.activeElement;
    let marked = false;
    const note = (records: MutationRecord[]) => {
      marked ||= records.some(
        (r) =>
          (r.type === 'attributes' &&
            (r.target as Element).getAttribute('aria-invalid') === 'true') ||
          [...r.addedNodes].some(
            (n) =>
              n instanceof Element &&
              (n.matches('[aria-invalid="true"]') ||
                n.querySelector('[aria-invalid="true"]') !== null),
          ),
      );
    };
    const observer = new MutationObserver(note);
    observer.observe(form, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-invalid'],
    });
    // React renders what a submit's handler set before the task ends.
    setTimeout(() => {
      note(observer.takeRecords());
      observer.disconnect();
      if (!marked) return;
      requestAnimationFrame(() =>
        setTimeout(() => {
          if (doc.activeElement !== focused) return;
          const first = form.querySelector<HTMLElement>('[aria-invalid="true"]');
          if (first !== null) first.focus();
        }, 0),
      );
    }, 0);
  };
  doc.addEventListener('submit', onSubmit, true);
  return () => doc.removeEventListener('submit', onSubmit, true);
}
