import { useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  ActionIcon,
  Button,
  Fieldset,
  Group,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { emailField, isolate } from '@plant/shared-schema';
import { Name } from '../../components/name';
import { useLiveQuery } from '../../sync/hooks';
import { userDisplayName } from './alarm-parts';

/** Who is told: a user of the account, or an outside address. */
export type Who = { readonly user_id: string } | { readonly email: string };

/** A column of the list beside the recipient's name (an alarm's channels). */
export interface RecipientColumn<R> {
  readonly key: string;
  readonly header: ReactNode;
  readonly cell: (recipient: R, index: number, whoText: string) => ReactNode;
}

/**
 * The recipients of an alarm or a report (spec 001 §3): a list of users of the account and
 * outside addresses, each removable, with users added from a list (those not listed yet) and
 * addresses typed and checked; an alarm adds its channels as columns, a report a note on the
 * addresses. Errors of the whole list and of each row come from the form.
 */
export function RecipientsEditor<R extends Who>(props: {
  readonly recipients: readonly R[];
  readonly error: string | undefined;
  readonly rowError: (index: number) => string | undefined;
  readonly onChange: (recipients: R[]) => void;
  /** A new recipient as the list keeps it (an alarm's gets the mail channel). */
  readonly make: (who: Who) => R;
  readonly empty: ReactNode;
  /** `data-testid` of the table; each row's is the same without the last letter. */
  readonly testId: string;
  readonly columns?: readonly RecipientColumn<R>[];
  /** Said under an outside address (a report's: it gets reports once confirmed). */
  readonly addressNote?: ReactNode;
  /** The form's text for an address that is not valid, in the user's language. */
  readonly translate: (text: string) => string;
}) {
  const { t } = useLingui();
  const users = useLiveQuery({ type: 'user', limit: 1000 });
  const [user, setUser] = useState('');
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const list = props.recipients;
  const columns = props.columns ?? [];
  // The names of the list's users from the one query above, not a watch per recipient.
  const names = new Map((users?.items ?? []).map((u) => [u.id, userDisplayName(u.attributes)]));
  const taken = new Set(list.map((r) => ('user_id' in r ? r.user_id : '')));
  const addUser = () => {
    if (user === '') return;
    props.onChange([...list, props.make({ user_id: user })]);
    setUser('');
  };
  const addEmail = () => {
    const parsed = emailField.safeParse(email);
    if (!parsed.success) {
      setEmailError(props.translate(parsed.error.issues[0]?.message ?? ''));
      return;
    }
    setEmailError(null);
    props.onChange([...list, props.make({ email: parsed.data })]);
    setEmail('');
  };
  return (
    <Fieldset legend={t`Recipients`} data-field="recipients" tabIndex={-1}>
      <Stack gap="xs">
        {list.length === 0 ? (
          <Text size="sm" c="dimmed">
            {props.empty}
          </Text>
        ) : (
          <Table data-testid={props.testId}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">
                  <Trans>Recipient</Trans>
                </Table.Th>
                {columns.map((c) => (
                  <Table.Th scope="col" key={c.key}>
                    {c.header}
                  </Table.Th>
                ))}
                <Table.Th scope="col">
                  <Trans>Remove</Trans>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((r, i) => {
                const whoText = 'user_id' in r ? (names.get(r.user_id) ?? r.user_id) : r.email;
                const rowError = props.rowError(i);
                return (
                  <Table.Tr
                    key={'user_id' in r ? r.user_id : r.email}
                    data-testid={props.testId.slice(0, -1)}
                  >
                    <Table.Td>
                      <Name>{whoText}</Name>
                      {'email' in r && props.addressNote !== undefined ? (
                        <Text size="xs" c="dimmed">
                          {props.addressNote}
                        </Text>
                      ) : null}
                      {rowError === undefined ? null : (
                        <Text size="xs" c="red" role="alert">
                          {rowError}
                        </Text>
                      )}
                    </Table.Td>
                    {columns.map((c) => (
                      <Table.Td key={c.key}>{c.cell(r, i, whoText)}</Table.Td>
                    ))}
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t`Remove ${{ whoText: isolate(whoText) }}`}
                        onClick={() => props.onChange(list.filter((_, j) => j !== i))}
                      >
                        ×
                      </ActionIcon>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
        {props.error === undefined ? null : (
          <Text size="sm" c="red" role="alert">
            {props.error}
          </Text>
        )}
        <Group align="flex-end" gap="xs">
          <NativeSelect
            label={t`User of the account`}
            value={user}
            onChange={(e) => setUser(e.currentTarget.value)}
            data={[
              { value: '', label: t`Choose a user` },
              ...(users?.items ?? [])
                .filter((u) => !taken.has(u.id))
                .map((u) => ({ value: u.id, label: names.get(u.id) ?? u.id })),
            ]}
          />
          <Button variant="light" onClick={addUser} disabled={user === ''}>
            <Trans>Add user</Trans>
          </Button>
          <TextInput
            label={t`Email address`}
            type="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={emailError}
          />
          <Button variant="light" onClick={addEmail} disabled={email.trim() === ''}>
            <Trans>Add address</Trans>
          </Button>
        </Group>
      </Stack>
    </Fieldset>
  );
}
