import { useEffect, useState, type ReactNode } from 'react';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Button, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { PasswordInput } from '../../components/password-input';
import { Link, useNavigate } from '@tanstack/react-router';
import { useSetAtom } from 'jotai';
import { z } from 'zod';
import {
  deferred,
  apiPaths,
  invitationInfoSchema,
  invitationJoinSchema,
  LIMITS,
  type InvitationInfo,
} from '@plant/shared-schema';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { callApi } from '../../session/api';
import { signInWithToken } from '../../session/session';
import { serverFieldErrors, type FieldErrors } from './form-errors';
import { signInNoticeAtom } from './notice';
import { usePageTitle } from './page-title';
import { useAfterSignIn } from './sign-in-flow';
import { bySchema, useForm } from './use-form';
import { UserForm, useSubmit } from './user-form';

const JOIN_FIELDS = ['firstname', 'lastname', 'password'] as const;
const ACCEPT_FIELDS = ['password'] as const;
const joinForm = bySchema(invitationJoinSchema.omit({ token: true }), JOIN_FIELDS);
const acceptForm = bySchema(
  z.object({ password: z.string().min(1, 'Please enter your password') }),
  ACCEPT_FIELDS,
);
/** Signed in, or joined with a second factor due: the sign-in asks for it (and signs in). */
const acceptedSchema = /* @__PURE__ */ deferred(() =>
  z.union([z.object({ access_token: z.string() }), z.object({ second_factor: z.literal(true) })]),
);

/**
 * The link of an invitation mail (spec 001 §6): /user/set-password?invitation=…&email=…. It
 * says which account and role it is for; a new person sets names and a password, an existing
 * user accepts with its own password; then it is signed in, in that account. A used or expired
 * link says so.
 */
export function InvitationPage({ token }: { readonly token: string }) {
  const { t, i18n } = useLingui();
  usePageTitle(t`Invitation`);
  const [info, setInfo] = useState<InvitationInfo | { readonly error: string } | null>(null);
  useEffect(() => {
    void callApi('POST', apiPaths.invitationInfo(), invitationInfoSchema, {
      body: { token },
      quiet: true,
    }).then((answer) =>
      setInfo('error' in answer ? { error: callErrorText(answer.error) } : answer.data),
    );
  }, [token]);

  if (info === null) {
    return (
      <Text c="dimmed">
        <Trans>Reading the invitation…</Trans>
      </Text>
    );
  }
  if ('error' in info) {
    return (
      <UserForm title={<Trans>Invitation</Trans>} busy={false} onSubmit={() => Promise.resolve()}>
        <Alert color="red" role="alert">
          {translateServerText(i18n, info.error)}
        </Alert>
        <Anchor component={Link} to="/user/login" size="sm" ta="center">
          <Trans>Back to sign-in</Trans>
        </Anchor>
      </UserForm>
    );
  }
  return info.existing ? (
    <AcceptForm token={token} info={info} />
  ) : (
    <JoinForm token={token} info={info} />
  );
}

function useAccept(token: string) {
  const afterSignIn = useAfterSignIn();
  const navigate = useNavigate();
  const setNotice = useSetAtom(signInNoticeAtom);
  return async <K extends string>(
    body: Record<string, string>,
    fields: readonly K[],
    show: (e: FieldErrors<K>) => boolean,
  ) => {
    const answer = await callApi('POST', apiPaths.invitationAccept(), acceptedSchema, {
      body: { ...body, token },
      quiet: true,
    });
    if ('error' in answer) {
      const onFields = serverFieldErrors(answer.error.fields, fields);
      return show(onFields) ? null : callErrorText(answer.error);
    }
    if ('second_factor' in answer.data) {
      setNotice(msg`You have joined. Sign in with your second factor to open the account.`);
      await navigate({ to: '/user/login', replace: true });
      return null;
    }
    return afterSignIn(await signInWithToken(answer.data.access_token));
  };
}

/** Whom the invitation is from and for: the account and role, and the address (read only). */
function Invited({ info }: { readonly info: InvitationInfo }) {
  const { t } = useLingui();
  return (
    <>
      <Text size="sm">
        <Trans>
          You are invited to {info.account} as {info.role}.
        </Trans>
      </Text>
      <TextInput
        label={t`Email`}
        value={info.email}
        name="email"
        autoComplete="username"
        readOnly
      />
    </>
  );
}

/** The end of either form: what failed, the submit button, and "…ing" for screen readers. */
function Send(props: {
  readonly error: string | null;
  readonly busy: boolean;
  readonly label: ReactNode;
  readonly sending: ReactNode;
}) {
  const { i18n } = useLingui();
  return (
    <>
      {props.error === null ? null : (
        <Alert color="red" role="alert">
          {translateServerText(i18n, props.error)}
        </Alert>
      )}
      <Button type="submit" fullWidth loading={props.busy}>
        {props.label}
      </Button>
      <VisuallyHidden role="status">{props.busy ? props.sending : null}</VisuallyHidden>
    </>
  );
}

function JoinForm({ token, info }: { readonly token: string; readonly info: InvitationInfo }) {
  const { t } = useLingui();
  const form = useForm({
    fields: JOIN_FIELDS,
    initial: { firstname: '', lastname: '', password: '' },
    validate: joinForm,
  });
  const accept = useAccept(token);
  const { busy, error, submit } = useSubmit(form.check, (data) =>
    accept(data, JOIN_FIELDS, (e) => form.showErrors(e)),
  );
  const { newPasswordMin: min, newPasswordMax: max } = LIMITS;
  return (
    <UserForm title={<Trans>Join the account</Trans>} busy={busy} onSubmit={submit}>
      <Invited info={info} />
      <TextInput
        {...form.field('firstname')}
        label={t`First name`}
        autoComplete="given-name"
        required
      />
      <TextInput
        {...form.field('lastname')}
        label={t`Last name`}
        autoComplete="family-name"
        required
      />
      <PasswordInput
        {...form.field('password')}
        label={t`Password`}
        description={t`${min} to ${max} characters`}
        autoComplete="new-password"
        required
      />
      <Send
        error={error}
        busy={busy}
        label={<Trans>Join</Trans>}
        sending={<Trans>Joining…</Trans>}
      />
    </UserForm>
  );
}

function AcceptForm({ token, info }: { readonly token: string; readonly info: InvitationInfo }) {
  const { t } = useLingui();
  const form = useForm({ fields: ACCEPT_FIELDS, initial: { password: '' }, validate: acceptForm });
  const accept = useAccept(token);
  const { busy, error, submit } = useSubmit(form.check, (data) =>
    accept(data, ACCEPT_FIELDS, (e) => form.showErrors(e)),
  );
  return (
    <UserForm title={<Trans>Accept the invitation</Trans>} busy={busy} onSubmit={submit}>
      <Invited info={info} />
      <PasswordInput
        {...form.field('password')}
        label={t`Your password`}
        autoComplete="current-password"
        required
      />
      <Send
        error={error}
        busy={busy}
        label={<Trans>Accept</Trans>}
        sending={<Trans>Accepting…</Trans>}
      />
    </UserForm>
  );
}
