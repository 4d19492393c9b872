import { useRef, useState } from 'react';

/** What {@link useUnsaved} gives a form. */
export interface Unsaved {
  /** The form has changes not saved yet (it then keeps them over the stored model's). */
  readonly dirty: boolean;
  /** Tells an edit. */
  readonly changed: () => void;
  /**
   * Tells a save beginning, with the form's values as they are now; answers what to call once it
   * succeeded: the form is clean again only if no edit came while it was written (a letter typed
   * then, or a file whose keeping ended then, is in no save yet, and a form that took the stored
   * model back would drop it). That call answers whether it is.
   */
  readonly saving: () => () => boolean;
}

/** A form's unsaved changes, counted so that a save ends only those it holds. */
export function useUnsaved(): Unsaved {
  const [dirty, setDirty] = useState(false);
  const edits = useRef(0);
  return {
    dirty,
    changed: () => {
      edits.current += 1;
      setDirty(true);
    },
    saving: () => {
      const at = edits.current;
      return () => {
        if (edits.current !== at) return false;
        setDirty(false);
        return true;
      };
    },
  };
}
