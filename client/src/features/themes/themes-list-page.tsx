import './catalogues';
import { useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Group, Modal, Skeleton, Stack, TextInput, Title } from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { themeAttributesSchema, uuidv7 } from '@plant/shared-schema';
import { DataTable } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { ModalForm } from '../../components/modal-form';
import { Name } from '../../components/name';
import { usePageState } from '../../components/page-state';
import { useCan } from '../../permissions/permissions';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { themePaths } from './paths';
import { ThemesNav } from './themes-nav';
import classes from './themes.module.css';

/** A colour as a small square, or a dash when the theme has none. */
export function Swatch({
  color,
  label,
}: {
  readonly color: string | null;
  readonly label: string;
}) {
  if (color === null) return <span aria-label={label}>–</span>;
  return (
    <span
      className={classes.swatch}
      style={{ backgroundColor: color }}
      role="img"
      aria-label={`${label}: ${color}`}
    />
  );
}

/** /app/themes/list (spec 000 §2): the account's themes, their colours and who shows them, live. */
export function ThemesListPage() {
  const { t } = useLingui();
  const themes = useLiveQuery({ type: 'theme', limit: 1000 });
  const accounts = useLiveQuery({ type: 'account', limit: 5000 });
  const users = useMemo(() => {
    const counted = new Map<string, number>();
    for (const a of accounts?.items ?? []) {
      const id = a.attributes.theme_id;
      if (id !== null) counted.set(id, (counted.get(id) ?? 0) + 1);
    }
    return counted;
  }, [accounts]);
  return (
    <Stack gap="md" data-testid="themes-page">
      <ThemesNav />
      <Group justify="space-between">
        <Title order={1}>
          <Trans>Themes</Trans>
        </Title>
        <NewThemeButton />
      </Group>
      <DataTable
        rows={themes?.items}
        name={{ label: t`Themes` }}
        testId="themes-list"
        rowKey={(theme) => theme.id}
        rowData={(theme) => ({ 'data-testid': 'theme-row', 'data-id': theme.id })}
        loading={<Skeleton height={36} />}
        empty={<EmptyState title={<Trans>No themes yet</Trans>} />}
        columns={[
          {
            id: 'title',
            header: <Trans>Title</Trans>,
            rowHeader: true,
            cell: (theme) => (
              <Anchor component={Link} to={themePaths.theme(theme.id)}>
                <Name>{theme.attributes.title}</Name>
              </Anchor>
            ),
          },
          {
            id: 'colours',
            header: <Trans>Colours</Trans>,
            cell: (theme) => (
              <Group gap={6}>
                <Swatch color={theme.attributes.color1} label={t`Color1`} />
                <Swatch color={theme.attributes.color2} label={t`Color2`} />
              </Group>
            ),
          },
          {
            id: 'accounts',
            header: <Trans>Accounts showing it</Trans>,
            cell: (theme) => users.get(theme.id) ?? 0,
          },
        ]}
      />
    </Stack>
  );
}

function NewThemeButton() {
  const { t } = useLingui();
  const can = useCan();
  const [open, setOpen] = useState(false);
  if (!can('theme::create')) return null;
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="theme-new">
        <Trans>New theme</Trans>
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t`New theme`}>
        {open ? <NewThemeForm onCancel={() => setOpen(false)} /> : null}
      </Modal>
    </>
  );
}

function NewThemeForm(props: { readonly onCancel: () => void }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [title, setTitle] = useState('');
  const page = usePageState(['title']);
  const submit = async () => {
    const checked = page.check(themeAttributesSchema.safeParse({ title }));
    if (checked === null) return;
    const id = uuidv7();
    if (!page.took(await syncWorker().writes.create('theme', checked, id))) return;
    await navigate({ to: themePaths.theme(id) });
  };
  return (
    <ModalForm
      testId="theme-form"
      onSubmit={submit}
      onCancel={props.onCancel}
      submitLabel={<Trans>Create theme</Trans>}
      error={page.error}
    >
      <TextInput
        label={t`Title`}
        placeholder={t`Enter theme title`}
        required
        value={title}
        onChange={(e) => setTitle(e.currentTarget.value)}
        error={page.fields.title}
        data-autofocus
        data-testid="theme-title"
      />
    </ModalForm>
  );
}
