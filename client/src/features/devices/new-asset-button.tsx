import { lazy, Suspense, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Center, Loader, Modal } from '@mantine/core';
import { useCan } from '../../permissions/permissions';

/* The form is loaded when the dialog opens: the asset list's page stays small. */
const NewAssetForm = lazy(() => import('./asset-form').then((m) => ({ default: m.NewAssetForm })));

/** "New asset" on the list (asset::create): the asset's form in a dialog. */
export function NewAssetButton() {
  const { t } = useLingui();
  const can = useCan();
  const [open, setOpen] = useState(false);
  if (!can('asset::create')) return null;
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="new-asset">
        <Trans>New asset</Trans>
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t`New asset`}>
        {open ? (
          <Suspense
            fallback={
              <Center p="md" role="status" aria-label={t`Loading the form…`}>
                <Loader size="sm" />
              </Center>
            }
          >
            <NewAssetForm onClose={() => setOpen(false)} />
          </Suspense>
        ) : null}
      </Modal>
    </>
  );
}
