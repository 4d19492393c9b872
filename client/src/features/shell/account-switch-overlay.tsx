import { Trans } from '@lingui/react/macro';
import { Loader, Overlay, Stack, Text } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { accountSwitchAtom } from '../../session/session';

/** Spec 000 §4: 'Switching to account {accountName}...' over everything while the switch runs. */
export function AccountSwitchOverlay() {
  const switching = useAtomValue(accountSwitchAtom);
  if (switching === null) return null;
  const { accountName } = switching;
  return (
    <Overlay fixed blur={3} color="#fff" backgroundOpacity={0.85} zIndex={1000} center>
      <Stack
        align="center"
        role="status"
        aria-live="assertive"
        data-testid="account-switch-overlay"
      >
        <Loader />
        <Text size="lg" fw={600}>
          <Trans>Switching to account {accountName}...</Trans>
        </Text>
      </Stack>
    </Overlay>
  );
}
