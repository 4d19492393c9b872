import { focusFirstInvalidOnSubmit } from './focus-first-invalid';
import { keepFocusOnBusyButtons } from './keep-focus-on-busy-buttons';

/**
 * Where the focus goes after a submit and a busy button, for every form and button of the app:
 * a lazy part (main.tsx), so no first visit carries it.
 */
export function installFocusCare(doc: Document): void {
  // A submit the page finds wrong puts the focus on the first field with a problem.
  focusFirstInvalidOnSubmit(doc);
  // A button busy while focused (Send, Video call) has the focus back once it is done.
  keepFocusOnBusyButtons(doc);
}
