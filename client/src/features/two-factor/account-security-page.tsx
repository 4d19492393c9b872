// Its catalogue and texts join the translation table with the page.
import './catalogues';
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Paper, Radio, Stack, Table, Text, Title } from '@mantine/core';
import { useParams } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import {
  isolate,
  SECOND_FACTOR_REQUIREMENTS,
  USER_EDIT_PERMISSION,
  type MemberTwoFactor,
  type SecondFactorRequirement,
  type TwoFactorLogEntry,
} from '@plant/shared-schema';
import {
  LoadState,
  PageError,
  SavedNote,
  useLoaded,
  usePageState,
} from '../../components/page-state';
import { Name } from '../../components/name';
import { translateServerText, callErrorText } from '../../i18n/server-texts';
import { useCan } from '../../permissions/permissions';
import { sessionAtom } from '../../state/session';
import { twoFactorApi } from './two-factor-api';
import './server-texts';

const isRequirement = (v: string): v is SecondFactorRequirement =>
  (SECOND_FACTOR_REQUIREMENTS as readonly string[]).includes(v);

/**
 * /app/accounts/{accountid}/security (issue 38 item 2): who of the account's members must sign
 * in with a second factor (nobody, admins, everyone), and, for the active account, its members'
 * second factors with the admin's reset for a member who lost its own (logged by the server).
 */
export function AccountSecurityPage() {
  const { t } = useLingui();
  const { accountid = '' }: { accountid?: string } = useParams({ strict: false });
  const session = useAtomValue(sessionAtom);
  const active = session?.user.activeAccount?.id === accountid;
  const can = useCan();
  const [loaded, replace] = useLoaded(accountid, () => twoFactorApi.accountRule(accountid));
  const [choice, setChoice] = useState<SecondFactorRequirement | null>(null);
  const page = usePageState();
  const [busy, setBusy] = useState(false);
  // A reset done here shows in the history at once: it is read again.
  const [resets, setResets] = useState(0);

  if (loaded.name !== 'loaded') return <LoadState state={loaded} />;
  const required = choice ?? loaded.data.required;
  const mayEdit = can('account::edit');

  const save = async () => {
    setBusy(true);
    const answer = await twoFactorApi.setAccountRule(accountid, required);
    setBusy(false);
    if (!page.took(answer, 'call') || 'error' in answer) return;
    replace(answer.data);
    setChoice(null);
  };

  const labels: Record<SecondFactorRequirement, string> = {
    nobody: t`Nobody: each member decides`,
    admins: t`Administrators must sign in with a second factor`,
    everyone: t`Everyone must sign in with a second factor`,
  };

  return (
    <Stack gap="lg" maw={860} data-testid="account-security">
      <Title order={1}>
        <Trans>Two-factor sign-in</Trans>
      </Title>
      <Paper withBorder p="md" component="section" aria-label={t`Rule of the account`}>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <Stack gap="sm">
            <Radio.Group
              label={t`Who must sign in with a second factor`}
              description={t`A member who must and has none sets one up at the next sign-in.`}
              value={required}
              onChange={(v) => isRequirement(v) && setChoice(v)}
            >
              <Stack gap="xs" mt="xs">
                {SECOND_FACTOR_REQUIREMENTS.map((r) => (
                  <Radio key={r} value={r} label={labels[r]} disabled={!mayEdit} />
                ))}
              </Stack>
            </Radio.Group>
            <PageError error={page.error} />
            <Group>
              <Button type="submit" loading={busy} disabled={!mayEdit}>
                <Trans>Save</Trans>
              </Button>
              <SavedNote saved={page.saved} />
            </Group>
          </Stack>
        </form>
      </Paper>
      {active && can('user::view') ? (
        <>
          <MembersSection
            mayReset={can(USER_EDIT_PERMISSION)}
            self={session?.user.id ?? ''}
            onReset={() => setResets((n) => n + 1)}
          />
          <HistorySection key={resets} />
        </>
      ) : (
        <Text size="sm" c="dimmed">
          <Trans>The members&apos; second factors show for the account you work in.</Trans>
        </Text>
      )}
    </Stack>
  );
}

/** The members and their factors, with the reset of a member's factors. */
function MembersSection({
  mayReset,
  self,
  onReset,
}: {
  readonly mayReset: boolean;
  readonly self: string;
  readonly onReset: () => void;
}) {
  const { t, i18n } = useLingui();
  const [loaded, replace] = useLoaded('members', () => twoFactorApi.members());
  const [asking, setAsking] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ readonly ok: boolean; readonly text: string } | null>(
    null,
  );
  if (loaded.name !== 'loaded') return <LoadState state={loaded} />;

  const reset = async (member: MemberTwoFactor) => {
    setAsking(null);
    const answer = await twoFactorApi.resetMember(member.id);
    if ('error' in answer) {
      setNotice({ ok: false, text: translateServerText(i18n, callErrorText(answer.error)) });
      return;
    }
    // The answer's message comes as the app's notification (the worker shows an answer's
    // `message`): nothing more to say here.
    setNotice(null);
    onReset();
    const again = await twoFactorApi.members();
    if (!('error' in again)) replace(again.data);
  };

  return (
    <Paper withBorder p="md" component="section" aria-label={t`Members`}>
      <Stack gap="sm">
        <Title order={2} size="h3">
          <Trans>Members</Trans>
        </Title>
        <Table data-testid="members-two-factor">
          <Table.Caption>
            <Trans>The members and their second factors</Trans>
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">
                <Trans>Member</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Authenticator app</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Passkeys</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Required</Trans>
              </Table.Th>
              <Table.Th scope="col">
                <Trans>Actions</Trans>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {loaded.data.map((m) => {
              const name = `${m.firstname} ${m.lastname}`.trim() || m.email;
              const any = m.totp || m.passkeys > 0;
              return (
                <Table.Tr key={m.id} data-member={m.email}>
                  <Table.Th scope="row">
                    <Name>{name}</Name>
                    <Text size="xs" c="dimmed">
                      <Name>{m.email}</Name>
                    </Text>
                  </Table.Th>
                  <Table.Td>{m.totp ? t`On` : t`Off`}</Table.Td>
                  <Table.Td>{m.passkeys}</Table.Td>
                  <Table.Td>{m.required ? t`Yes` : t`No`}</Table.Td>
                  <Table.Td>
                    {!mayReset || !any || m.id === self ? null : asking === m.id ? (
                      <Group gap="xs">
                        <Button size="xs" color="red" onClick={() => void reset(m)}>
                          <Trans>Reset</Trans>
                        </Button>
                        <Button size="xs" variant="default" onClick={() => setAsking(null)}>
                          <Trans>Keep it</Trans>
                        </Button>
                      </Group>
                    ) : (
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        onClick={() => setAsking(m.id)}
                        aria-label={t`Reset the second factor of ${name}`}
                      >
                        <Trans>Reset second factor</Trans>
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
        {notice === null ? null : (
          <Alert color={notice.ok ? 'green' : 'red'} role={notice.ok ? 'status' : 'alert'}>
            {notice.text}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

const personName = (p: TwoFactorLogEntry['actor']) =>
  `${p.firstname} ${p.lastname}`.trim() || p.email;

/**
 * Who changed which second factor when (the server's log): the account's rule, its admins'
 * resets, its members' own changes; the newest first.
 */
function HistorySection() {
  const { t, i18n } = useLingui();
  const [loaded] = useLoaded('history', () => twoFactorApi.history());
  const what = (e: TwoFactorLogEntry): string => {
    const member = isolate(personName(e.member));
    switch (e.action) {
      case 'totp_on':
        return t`Turned the authenticator app on`;
      case 'totp_off':
        return t`Turned the authenticator app off`;
      case 'recovery_codes_renewed':
        return t`Made new recovery codes`;
      case 'recovery_code_used':
        return t`Signed in with a recovery code`;
      case 'passkey_added':
        return t`Added a passkey`;
      case 'passkey_removed':
        return t`Removed a passkey`;
      case 'rule_nobody':
        return t`Set the rule: each member decides`;
      case 'rule_admins':
        return t`Set the rule: administrators need a second factor`;
      case 'rule_everyone':
        return t`Set the rule: everyone needs a second factor`;
      case 'admin_reset':
        return t`Reset the second factors of ${member}`;
    }
  };
  return (
    <Paper withBorder p="md" component="section" aria-label={t`History`}>
      <Stack gap="sm">
        <Title order={2} size="h3">
          <Trans>History</Trans>
        </Title>
        {loaded.name !== 'loaded' ? (
          <LoadState state={loaded} />
        ) : loaded.data.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="two-factor-history-empty">
            <Trans>No second factor has been changed yet.</Trans>
          </Text>
        ) : (
          <Table data-testid="two-factor-history">
            <Table.Caption>
              <Trans>Changes of second factors, the newest first</Trans>
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">
                  <Trans>When</Trans>
                </Table.Th>
                <Table.Th scope="col">
                  <Trans>Who</Trans>
                </Table.Th>
                <Table.Th scope="col">
                  <Trans>What</Trans>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {loaded.data.map((e) => (
                <Table.Tr key={e.id} data-action={e.action} data-history-member={e.member.email}>
                  <Table.Td>
                    <time dateTime={new Date(e.at).toISOString()}>
                      {i18n.date(new Date(e.at), { dateStyle: 'medium', timeStyle: 'short' })}
                    </time>
                  </Table.Td>
                  <Table.Td>
                    <Name>{personName(e.actor)}</Name>
                  </Table.Td>
                  <Table.Td>{what(e)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Paper>
  );
}
