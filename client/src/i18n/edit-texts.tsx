import { lazy, Suspense } from 'react';
import { useAtomValue } from 'jotai';
import { editTextsAtom } from './words-atoms';

const InContextEditing = lazy(() =>
  import('../features/translations/in-context').then((m) => ({ default: m.InContextEditing })),
);

const AccountWordsNow = lazy(() =>
  import('./account-words').then((m) => ({ default: m.AccountWords })),
);

/**
 * The account's words over the product's texts (account-words.tsx), loaded after the shell: the
 * first screen does not wait for them (they show once read, and from the device's copy offline).
 */
export function AccountWords() {
  return (
    <Suspense fallback={null}>
      <AccountWordsNow />
    </Suspense>
  );
}

/** "Edit texts on the screens": loaded only once an admin turns it on (translations page). */
export function EditTexts() {
  const on = useAtomValue(editTextsAtom);
  if (!on) return null;
  return (
    <Suspense fallback={null}>
      <InContextEditing />
    </Suspense>
  );
}
