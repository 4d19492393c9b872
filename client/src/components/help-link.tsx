import { Trans } from '@lingui/react/macro';
import { Anchor, Group, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { ROUTE_REQUIREMENTS } from '@plant/shared-schema';
import { useMayEnter } from '../permissions/permissions';

/**
 * The help article an alarm, a data stream or a 3D hotspot links (issue 33 item 5), as a link
 * to `help/{number}` (it opens in the reader's language, offline too). Nothing without one, or
 * for a user who may not read the help centre.
 */
export function HelpLink({ number }: { readonly number: number | null | undefined }) {
  const mayEnter = useMayEnter();
  if (number === null || number === undefined || !mayEnter(ROUTE_REQUIREMENTS.helpcenter))
    return null;
  return (
    <Group gap={6} data-testid="help-link">
      <Text size="sm" c="dimmed">
        <Trans>Help:</Trans>
      </Text>
      <Anchor component={Link} to={`/app/help/${number}`} size="sm">
        <Trans>Article {number}</Trans>
      </Anchor>
    </Group>
  );
}
