import { useState } from 'react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import {
  Button,
  Checkbox,
  CloseButton,
  Fieldset,
  Group,
  ScrollArea,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useSearch } from '@tanstack/react-router';
import { LIMITS } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { EmptyState } from '../../components/empty-state';
import { useCan } from '../../permissions/permissions';
import { useLiveQuery } from '../../sync/hooks';
import { textOf } from '../devices/asset-texts';
import { usePageTitle } from '../user/page-title';
import { QrLabel, qrItemKey, type QrItem } from './qr-label';
import classes from './qr.module.css';
import { Name } from '../../components/name';

/** Items listed to choose from per kind: a search narrows longer lists. */
const SHOWN = 200;
const SEARCH_DEBOUNCE_MS = 250;

/** `?asset=<id>` or `?gateway=<id>` (an item's "Print label"): that item is chosen at first. */
function chosenAtFirst(search: Record<string, unknown>): Map<string, QrItem> {
  const chosen = new Map<string, QrItem>();
  for (const kind of ['asset', 'gateway'] as const) {
    const id = search[kind];
    // The router reads search values as JSON: an id of digits arrives as a number.
    if (typeof id === 'string' || typeof id === 'number') {
      const item = { kind, id: String(id) };
      chosen.set(qrItemKey(item), item);
    }
  }
  return chosen;
}

/**
 * /app/qr/details: labels to print. Assets and gateways are chosen from the local store (all, or
 * by a search); each label is the item's code with its name and MAC address or serial number.
 * The sheet prints on A4 without the app around it (qr.module.css); offline too, as the codes
 * are made in the browser.
 */
export function QrLabelsPage() {
  const { t } = useLingui();
  usePageTitle(t`QR code labels`);
  const can = useCan();
  const search: Record<string, unknown> = useSearch({ strict: false });
  const [chosen, setChosen] = useState(() => chosenAtFirst(search));
  const [text, setText] = useState('');
  const [debounced] = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const term = debounced.length >= LIMITS.searchMin ? debounced : '';
  const short = text.trim().length > 0 && text.trim().length < LIMITS.searchMin;

  const setItems = (items: readonly QrItem[], on: boolean) =>
    setChosen((previous) => {
      const next = new Map(previous);
      for (const item of items) {
        if (on) next.set(qrItemKey(item), item);
        else next.delete(qrItemKey(item));
      }
      return next;
    });
  const items = [...chosen.values()];
  const count = items.length;

  return (
    <Stack gap="lg">
      <Stack gap="md" className={classes.noPrint}>
        <Title order={1}>
          <Trans>QR code labels</Trans>
        </Title>
        <Text c="dimmed">
          <Trans>
            Choose the assets and gateways to label, then print the sheet. Each label carries the
            item's QR code and its name; scanning it opens the asset or links the gateway.
          </Trans>
        </Text>
        <TextInput
          type="search"
          label={t`Search`}
          placeholder={t`Name, MAC address or serial number`}
          description={
            short ? (
              <Trans>Type at least 3 characters to search. Everything is listed until then.</Trans>
            ) : (
              <Trans>Searches names, MAC addresses and serial numbers, from 3 characters.</Trans>
            )
          }
          value={text}
          maxLength={250}
          onChange={(event) => setText(event.currentTarget.value)}
          rightSection={
            text === '' ? null : (
              <CloseButton aria-label={t`Clear search`} onClick={() => setText('')} />
            )
          }
          data-testid="qr-search"
        />
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {can('asset::view') ? (
            <Picker kind="asset" term={term} chosen={chosen} setItems={setItems} />
          ) : null}
          {can('gateway::view') ? (
            <Picker kind="gateway" term={term} chosen={chosen} setItems={setItems} />
          ) : null}
        </SimpleGrid>
        <Group justify="space-between">
          <Text role="status" data-testid="qr-label-count">
            <Plural value={count} _0="No labels chosen" one="# label" other="# labels" />
          </Text>
          <Group gap="xs">
            <Button
              variant="default"
              disabled={count === 0}
              onClick={() => setChosen(new Map())}
              data-testid="qr-clear"
            >
              <Trans>Clear the choice</Trans>
            </Button>
            <Button disabled={count === 0} onClick={() => window.print()} data-testid="qr-print">
              <Trans>Print</Trans>
            </Button>
          </Group>
        </Group>
      </Stack>
      {count === 0 ? (
        <div className={classes.noPrint}>
          <EmptyState title={<Trans>No labels yet</Trans>}>
            <Text c="dimmed" ta="center">
              {can('asset::view') || can('gateway::view') ? (
                <Trans>
                  Choose assets or gateways above: their labels show here, ready to print.
                </Trans>
              ) : (
                <Trans>
                  Your role shows neither assets nor gateways in this account, so there is nothing
                  to label.
                </Trans>
              )}
            </Text>
          </EmptyState>
        </div>
      ) : (
        <section className={classes.sheet} aria-label={t`Labels to print`} data-testid="qr-sheet">
          {items.map((item) => (
            <QrLabel key={qrItemKey(item)} item={item} />
          ))}
        </section>
      )}
    </Stack>
  );
}

/** The fields a search looks at, per kind. */
const SEARCH_FIELDS = { asset: ['name', 'mac'], gateway: ['name', 'serial'] } as const;

/** The items of one kind to choose from, live, with "choose all shown" and "none". */
function Picker({
  kind,
  term,
  chosen,
  setItems,
}: {
  readonly kind: QrItem['kind'];
  readonly term: string;
  readonly chosen: ReadonlyMap<string, QrItem>;
  readonly setItems: (items: readonly QrItem[], on: boolean) => void;
}) {
  const { t } = useLingui();
  const searched = <F,>(fields: F) => (term === '' ? {} : { search: { text: term, fields } });
  const assets = useLiveQuery(
    kind === 'asset' ? { type: 'asset', limit: SHOWN, ...searched(SEARCH_FIELDS.asset) } : null,
  );
  const gateways = useLiveQuery(
    kind === 'gateway'
      ? { type: 'gateway', limit: SHOWN, ...searched(SEARCH_FIELDS.gateway) }
      : null,
  );
  const result = kind === 'asset' ? assets : gateways;
  const models: readonly (LocalModel<'asset'> | LocalModel<'gateway'>)[] = result?.items ?? [];
  const shown = models.map((m): QrItem => ({ kind, id: m.id }));
  const allChosen = shown.length > 0 && shown.every((item) => chosen.has(qrItemKey(item)));
  const legend = kind === 'asset' ? t`Assets` : t`Gateways`;
  const listed = models.length;
  const total = result?.total ?? 0;

  return (
    <Fieldset legend={legend} data-testid={`qr-picker-${kind}`}>
      {result === undefined ? (
        <Stack gap={6} aria-busy>
          <Skeleton height={20} />
          <Skeleton height={20} />
        </Stack>
      ) : models.length === 0 ? (
        <Text c="dimmed" size="sm" data-testid="qr-picker-empty">
          {term !== '' ? (
            <Trans>Nothing matches “{term}”.</Trans>
          ) : !result.complete ? (
            <Trans>Still loading this account…</Trans>
          ) : kind === 'asset' ? (
            <Trans>This account has no assets yet.</Trans>
          ) : (
            <Trans>This account has no gateways yet.</Trans>
          )}
        </Text>
      ) : (
        <Stack gap="xs">
          <Group gap="xs">
            <Button
              size="compact-sm"
              variant="light"
              disabled={allChosen}
              onClick={() => setItems(shown, true)}
              data-testid="qr-choose-all"
            >
              {kind === 'asset' ? (
                <Trans>Choose all listed assets</Trans>
              ) : (
                <Trans>Choose all listed gateways</Trans>
              )}
            </Button>
            <Button
              size="compact-sm"
              variant="subtle"
              disabled={!shown.some((item) => chosen.has(qrItemKey(item)))}
              onClick={() => setItems(shown, false)}
            >
              <Trans>None</Trans>
            </Button>
          </Group>
          <ScrollArea.Autosize mah={260} type="auto">
            <Stack gap={6} p={2}>
              {models.map((m) => {
                const item: QrItem = { kind, id: m.id };
                const name = textOf(m.attributes, 'name');
                const detail =
                  m.type === 'asset' ? textOf(m.attributes, 'mac') : textOf(m.attributes, 'serial');
                return (
                  <Checkbox
                    key={m.id}
                    checked={chosen.has(qrItemKey(item))}
                    onChange={(event) => setItems([item], event.currentTarget.checked)}
                    label={<Name>{name}</Name>}
                    description={detail === '' ? undefined : detail}
                    data-testid="qr-choice"
                    data-id={m.id}
                  />
                );
              })}
            </Stack>
          </ScrollArea.Autosize>
          {total > listed ? (
            <Text size="sm" c="dimmed">
              <Trans>
                {listed} of {total} listed: search to find the others.
              </Trans>
            </Text>
          ) : null}
        </Stack>
      )}
    </Fieldset>
  );
}
