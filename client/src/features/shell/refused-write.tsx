import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Stack, Text } from '@mantine/core';
import type { PendingWrite } from '@plant/sync-worker/api';
import { shownValue, writeTitle, writtenValues } from './write-texts';

/**
 * A write the server refused, as its notification says it (issue 30 item 5): what was refused
 * (the model by name, each field with the user's value), why (the server's words, translated),
 * and the user's text kept: Copy takes the values, and the write stays in the sync details,
 * to be sent again or given up.
 */
export function RefusedWrite(props: {
  readonly write: PendingWrite;
  readonly reasons: readonly string[];
}) {
  const { i18n } = useLingui();
  const { write } = props;
  const values = writtenValues(write);
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const copy = () => {
    const text = values.map((v) => (values.length === 1 ? v.value : `${v.field}: ${v.value}`));
    navigator.clipboard.writeText(text.join('\n')).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  };
  return (
    <Stack gap={4} data-testid="refused-write">
      <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
        {writeTitle(i18n, write)}
      </Text>
      {values.length === 0 ? null : (
        <Stack component="ul" gap={0} p={0} m={0}>
          {values.map(({ field, value }) => (
            <Text
              component="li"
              key={field}
              size="sm"
              style={{ listStyle: 'none', overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}
              data-testid="refused-value"
            >
              {field}: {shownValue(value)}
            </Text>
          ))}
        </Stack>
      )}
      {props.reasons.map((reason, i) => (
        <Text key={i} size="sm" c="red" data-testid="refused-reason">
          {reason}
        </Text>
      ))}
      <Text size="xs" c="dimmed">
        <Trans>
          The change is kept in the sync details, where it can be sent again or given up.
        </Trans>
      </Text>
      {values.length === 0 ? null : (
        <Group gap="xs">
          <Button size="compact-xs" variant="light" onClick={copy}>
            {copied === 'yes' ? <Trans>Copied</Trans> : <Trans>Copy</Trans>}
          </Button>
          {copied === 'failed' ? (
            <Text size="xs" c="red" role="status">
              <Trans>The browser did not allow copying.</Trans>
            </Text>
          ) : null}
        </Group>
      )}
    </Stack>
  );
}
