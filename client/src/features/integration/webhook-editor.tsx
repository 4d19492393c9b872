import './catalogues';
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Code,
  CopyButton,
  Group,
  MultiSelect,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { Link } from '@tanstack/react-router';
import {
  deferred,
  apiPaths,
  integrationAttributesSchema,
  integrationSecretSchema,
  isolate,
  WEBHOOK_KIND,
  type IntegrationSecret,
} from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { useFormBase } from '../../components/changed-fields';
import { PageError, usePageState } from '../../components/page-state';
import { translateServerText } from '../../i18n/server-texts';
import { callApi } from '../../session/api';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { integrationPaths } from './paths';

/** What the editor checks before it writes: the page's address and the webhook's part. */
const editedSchema = /* @__PURE__ */ deferred(() =>
  integrationAttributesSchema.pick({ slug: true, webhook: true }),
);
const FIELDS = ['slug', 'webhook.url', 'webhook.asset_ids'] as const;

/**
 * The webhook part of an integration in the account's integrations (issue 37 item 6), for
 * account-lists.tsx: the page's address, and for a webhook its address, whether it sends values,
 * which assets, and its signing secret (read or made anew through the server: it needs the
 * network and integration::edit). Its own chunk, with the integration area's texts.
 */
export function WebhookEditor(props: {
  readonly integration: LocalModel<'integration'>;
  readonly mayEdit: boolean;
}) {
  const { integration, mayEdit } = props;
  const { t } = useLingui();
  const a = integration.attributes;
  const page = usePageState(FIELDS);
  const isWebhook = a.kind === WEBHOOK_KIND;
  const [open, setOpen] = useState(isWebhook);
  const [slug, setSlug] = useState(a.slug ?? '');
  const [url, setUrl] = useState(a.webhook?.url ?? '');
  const [sendValues, setSendValues] = useState(a.webhook?.send_values ?? false);
  const [allAssets, setAllAssets] = useState(a.webhook?.all_assets ?? true);
  const [assetIds, setAssetIds] = useState<string[]>(a.webhook?.asset_ids ?? []);
  const assets = useLiveQuery(open ? { type: 'asset', limit: 1000 } : null);
  // The draft is taken once, as the integration showed (a base that never follows: `dirty`
  // always): a save writes what changed from it, not a page address another admin set meanwhile.
  const base = useFormBase(a, true);

  const save = async () => {
    const parsed = page.check(
      editedSchema.safeParse({
        slug: slug.trim() === '' ? null : slug.trim(),
        webhook: open
          ? { url, send_values: sendValues, all_assets: allAssets, asset_ids: assetIds }
          : a.webhook,
      }),
    );
    if (parsed === null) return;
    const values = {
      slug: parsed.slug,
      ...(open ? { kind: WEBHOOK_KIND, webhook: parsed.webhook } : {}),
    };
    await base.save(values, async (change) =>
      page.took(await syncWorker().writes.update('integration', integration.id, change), 'write'),
    );
  };

  return (
    <Stack gap="xs" data-testid="webhook-editor">
      <PageError error={page.error} onClose={page.clear} />
      <Group align="flex-end">
        <TextInput
          label={t`Page address`}
          description={t`Lower-case letters, digits and hyphens`}
          value={slug}
          disabled={!mayEdit}
          error={page.fields.slug}
          onChange={(e) => setSlug(e.currentTarget.value)}
        />
        {a.slug === null ? null : (
          <Anchor component={Link} to={integrationPaths.page(a.slug)} size="sm">
            <Trans>Open its page</Trans>
          </Anchor>
        )}
      </Group>
      {open ? (
        <>
          <TextInput
            label={t`Webhook address`}
            placeholder="https://example.com/hooks/plant"
            value={url}
            disabled={!mayEdit}
            error={page.fields['webhook.url']}
            onChange={(e) => setUrl(e.currentTarget.value)}
          />
          <Checkbox
            label={t`Send the assets' stored values too`}
            checked={sendValues}
            disabled={!mayEdit}
            onChange={(e) => setSendValues(e.currentTarget.checked)}
          />
          <Switch
            label={t`Every asset of the account`}
            checked={allAssets}
            disabled={!mayEdit}
            onChange={(e) => setAllAssets(e.currentTarget.checked)}
          />
          {allAssets ? null : (
            <MultiSelect
              label={t`Assets`}
              searchable
              data={(assets?.items ?? []).map((m) => ({
                value: m.id,
                label: isolate(m.attributes.name),
              }))}
              value={assetIds}
              disabled={!mayEdit}
              error={page.fields['webhook.asset_ids']}
              onChange={setAssetIds}
            />
          )}
        </>
      ) : mayEdit ? (
        <Group>
          <Button size="xs" variant="light" onClick={() => setOpen(true)}>
            <Trans>Set up as webhook</Trans>
          </Button>
        </Group>
      ) : null}
      <Group>
        <Button size="xs" variant="light" disabled={!mayEdit} onClick={() => void save()}>
          <Trans>Apply page and webhook settings</Trans>
        </Button>
        {page.saved === null ? null : (
          <Text size="sm" c="green">
            {page.saved}
          </Text>
        )}
      </Group>
      {isWebhook && mayEdit ? <SigningSecret integrationId={integration.id} /> : null}
    </Stack>
  );
}

/** The signing secret: shown on request, or made anew (the old one stops signing at once). */
function SigningSecret({ integrationId }: { readonly integrationId: string }) {
  const { t, i18n } = useLingui();
  const [secret, setSecret] = useState<IntegrationSecret | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ask = async (method: 'GET' | 'POST') => {
    setBusy(true);
    const answer = await callApi(
      method,
      apiPaths.integrationSecret(integrationId),
      integrationSecretSchema,
      { quiet: true },
    );
    setBusy(false);
    if ('error' in answer)
      setProblem(
        answer.error.kind === 'network'
          ? t`The secret needs the network: it is kept on the server only.`
          : translateServerText(i18n, answer.error.message),
      );
    else {
      setProblem(null);
      setSecret(answer.data);
    }
  };
  return (
    <Stack gap={4} data-testid="webhook-secret">
      <Text size="sm" c="dimmed">
        <Trans>
          Each post is signed with this secret: X-Plant-Signature is v1= and the HMAC-SHA256 of the
          X-Plant-Timestamp header, a dot and the body.
        </Trans>
      </Text>
      {problem === null ? null : <Alert color="yellow">{problem}</Alert>}
      {secret === null ? null : (
        <Group gap="xs">
          <Code data-testid="webhook-secret-value">{secret.secret}</Code>
          <CopyButton value={secret.secret}>
            {({ copied, copy }) => (
              <Button size="compact-xs" variant="subtle" onClick={copy}>
                {copied ? <Trans>Copied</Trans> : <Trans>Copy</Trans>}
              </Button>
            )}
          </CopyButton>
        </Group>
      )}
      <Group>
        <Button size="xs" variant="subtle" loading={busy} onClick={() => void ask('GET')}>
          <Trans>Show secret</Trans>
        </Button>
        <Button
          size="xs"
          variant="subtle"
          color="red"
          loading={busy}
          onClick={() => void ask('POST')}
        >
          <Trans>Make a new secret</Trans>
        </Button>
      </Group>
    </Stack>
  );
}
