import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import {
  apiPaths,
  isolate,
  sentInvitationSchema,
  sentInvitationsSchema,
  type InvitationState,
  type SentInvitation,
} from '@plant/shared-schema';
import { DataTable } from '../../components/data-table';
import { LoadState, useLoaded } from '../../components/page-state';
import { Name } from '../../components/name';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { callApi } from '../../session/api';

const STATE_COLORS: Record<InvitationState, string> = {
  pending: 'blue',
  accepted: 'green',
  expired: 'gray',
  revoked: 'red',
};

/**
 * The account's sent invitations (issue 30 item 10) for users who may invite: address, role,
 * when the current link was mailed, and its state. An open one (pending or expired) is sent again
 * (a new link; the old one dies) or revoked (its link says so). REST calls: online only, like
 * inviting. `version` changes when an invitation was just sent, so the list reads again.
 */
export function SentInvitations(props: { readonly version: number }) {
  const { t, i18n } = useLingui();
  const [loaded, replace] = useLoaded(String(props.version), () =>
    callApi('GET', apiPaths.invitations(), sentInvitationsSchema),
  );
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ readonly ok: boolean; readonly text: string } | null>(
    null,
  );
  const stateText: Record<InvitationState, string> = {
    pending: t`Pending`,
    accepted: t`Accepted`,
    expired: t`Expired`,
    revoked: t`Revoked`,
  };

  if (loaded.name !== 'loaded') return <LoadState state={loaded} />;
  const list = loaded.data;

  const act = async (invitation: SentInvitation, what: 'resend' | 'revoke') => {
    setBusy(`${what}:${invitation.id}`);
    const answer = await callApi(
      'POST',
      what === 'resend'
        ? apiPaths.invitationResend(invitation.id)
        : apiPaths.invitationRevoke(invitation.id),
      sentInvitationSchema,
    );
    setBusy(null);
    const email = isolate(invitation.email);
    if ('error' in answer) {
      setNotice({
        ok: false,
        text:
          answer.error.kind === 'network'
            ? t`Invitations need the network: try again once you are online.`
            : translateServerText(i18n, callErrorText(answer.error)),
      });
      return;
    }
    replace(list.map((i) => (i.id === answer.data.id ? answer.data : i)));
    setNotice({
      ok: true,
      text:
        what === 'resend'
          ? t`A new link was sent to ${email}; the one before no longer works.`
          : t`The invitation to ${email} was revoked.`,
    });
  };

  return (
    <Stack gap="xs" data-testid="sent-invitations">
      <Title order={2} size="h4" id="sent-invitations-title">
        <Trans>Sent invitations</Trans>
      </Title>
      {notice === null ? null : (
        <Alert
          color={notice.ok ? 'green' : 'red'}
          role={notice.ok ? 'status' : 'alert'}
          withCloseButton
          onClose={() => setNotice(null)}
          data-testid="sent-invitations-notice"
        >
          {notice.text}
        </Alert>
      )}
      <DataTable
        rows={list}
        name={{ labelledBy: 'sent-invitations-title' }}
        rowKey={(i) => i.id}
        rowData={(i) => ({
          'data-testid': 'invitation-row',
          'data-email': i.email,
          'data-state': i.state,
        })}
        empty={
          <Text c="dimmed" size="sm">
            <Trans>No invitations sent yet.</Trans>
          </Text>
        }
        columns={[
          {
            id: 'email',
            header: t`E-mail`,
            rowHeader: true,
            cell: (i) => <Name>{i.email}</Name>,
          },
          { id: 'role', header: t`Role`, cell: (i) => <Name>{i.role}</Name> },
          {
            id: 'sent',
            header: t`Sent`,
            cell: (i) =>
              i18n.date(new Date(i.sent_at), { dateStyle: 'medium', timeStyle: 'short' }),
          },
          {
            id: 'state',
            header: t`State`,
            cell: (i) => (
              <Badge color={STATE_COLORS[i.state]} variant="light" data-testid="invitation-state">
                {stateText[i.state]}
              </Badge>
            ),
          },
          {
            id: 'actions',
            header: t`Actions`,
            cell: (i) =>
              i.state === 'pending' || i.state === 'expired' ? (
                <Group gap="xs" wrap="nowrap">
                  <Button
                    size="xs"
                    variant="light"
                    loading={busy === `resend:${i.id}`}
                    aria-label={t`Send the invitation to ${isolate(i.email)} again`}
                    onClick={() => void act(i, 'resend')}
                  >
                    <Trans>Send again</Trans>
                  </Button>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    loading={busy === `revoke:${i.id}`}
                    aria-label={t`Revoke the invitation to ${isolate(i.email)}`}
                    onClick={() => void act(i, 'revoke')}
                  >
                    <Trans>Revoke</Trans>
                  </Button>
                </Group>
              ) : null,
          },
        ]}
      />
    </Stack>
  );
}
