import { atom } from 'jotai';
import type { MessageDescriptor } from '@lingui/core';

/**
 * A message for the next sign-in screen (a password reset that could not sign in by itself says
 * there that it worked). The sign-in screen shows it once and clears it.
 */
export const signInNoticeAtom = atom<MessageDescriptor | null>(null);
