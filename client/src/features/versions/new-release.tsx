import { lazy, Suspense, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Modal } from '@mantine/core';
import { useCan } from '../../permissions/permissions';
import type { Made } from './new-release-form';

/* The dialog's form (its selects, segmented control and checks) comes on the first click: the
   version pages' first visit carries none of it (they sat within bytes of their budget). */
const NewReleaseForm = lazy(() => import('./new-release-form'));

/**
 * "New version" (release::create; not offered without it): what it is a version of and its
 * number in a dialog; the draft opens to add its file and notes. The id is made here, so it works
 * offline (the write waits in the outbox).
 */
export function NewReleaseButton(props: {
  /** The targets this page makes versions of (the platforms page: the agent's or a firmware's). */
  readonly targets: readonly Made[];
  /** A module's page: its name, fixed. */
  readonly name?: string;
}) {
  const { t } = useLingui();
  const can = useCan();
  const [open, setOpen] = useState(false);
  if (!can('release::create')) return null;
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="release-new">
        <Trans>New version</Trans>
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t`New version`}>
        {open ? (
          <Suspense fallback={null}>
            <NewReleaseForm
              targets={props.targets}
              {...(props.name === undefined ? {} : { name: props.name })}
              onCancel={() => setOpen(false)}
            />
          </Suspense>
        ) : null}
      </Modal>
    </>
  );
}
