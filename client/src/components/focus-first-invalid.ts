/*
 * After a submit the page itself finds wrong, the focus goes to the first field with a problem,
 * as a browser's own validation does (our forms are `noValidate`: their messages are ours, under
 * each field, tied to it by Mantine's aria-describedby). Before, most forms left the focus on
 * Send: a keyboard user had to find the field, and a screen reader said nothing of the messages.
 *
 * One listener for every form of the app: a field with a problem is one Mantine marks
 * `aria-invalid` from its `error`. Only problems shown by the submit's own handler count (those
 * are in the page a task later): a server's answer that comes later moves nothing, so the focus
 * never jumps while the user is typing elsewhere. Nor does it move when the handler moved it
 * itself (a dialog opened, the house useForm's own focus).
 */
export function focusFirstInvalidOnSubmit(doc: Document): () => void {
  const onSubmit = (event: Event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    const focused = doc.activeElement;
    setTimeout(() => {
      if (doc.activeElement !== focused && doc.activeElement !== doc.body) return;
      const first = form.querySelector<HTMLElement>('[aria-invalid="true"]');
      if (first === null || first.contains(doc.activeElement)) return;
      first.focus();
    }, 0);
  };
  doc.addEventListener('submit', onSubmit);
  return () => doc.removeEventListener('submit', onSubmit);
}
