import { atom } from 'jotai';
import type { InheritedTexts } from '@plant/shared-schema';

/** The words of the account and those above as the server merged them (the translations page). */
export const inheritedWordsAtom = atom<InheritedTexts>([]);

/** Whether the admin edits texts on the screens (a click on a text opens its words). */
export const editTextsAtom = atom(false);
