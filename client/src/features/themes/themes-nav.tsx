import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Group } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useCan } from '../../permissions/permissions';
import { themePaths } from './paths';

/** The brand's screens side by side: themes, the public pages' jobs, and the public site. */
export function ThemesNav() {
  const { t } = useLingui();
  const can = useCan();
  return (
    <Group component="nav" aria-label={t`The brand's screens`} gap="md">
      {can('theme::view') ? (
        <Anchor component={Link} to={themePaths.list()} size="sm">
          <Trans>Themes</Trans>
        </Anchor>
      ) : null}
      {can('job::view') ? (
        <Anchor component={Link} to={themePaths.jobs()} size="sm">
          <Trans>Jobs</Trans>
        </Anchor>
      ) : null}
      <Anchor href="/" target="_blank" rel="noopener" size="sm">
        <Trans>Public pages</Trans>
      </Anchor>
    </Group>
  );
}
