import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, List, Text } from '@mantine/core';
import { OAUTH_TEXTS, type ScopeId, type ScopeView } from '@plant/shared-schema';
import { translateServerText } from '../../i18n/server-texts';
import type { DialogProblem } from './developer-rules';

/** The shared schemas' and the server's developer-area messages, in the chosen language. */
const OAUTH_MESSAGES = new Map<string, MessageDescriptor>([
  [OAUTH_TEXTS.nameRequired, msg`The name field is required.`],
  [OAUTH_TEXTS.nameTooLong, msg`The name may not be greater than 191 characters.`],
  [OAUTH_TEXTS.unknownScope, msg`The scopes contain a scope that does not exist.`],
  [OAUTH_TEXTS.redirectRequired, msg`The redirect field is required.`],
  [
    OAUTH_TEXTS.redirectInvalid,
    msg`The redirect must be an absolute https address (http only on this computer: 127.0.0.1, [::1] or localhost) without a fragment.`,
  ],
  [OAUTH_TEXTS.expiryInvalid, msg`The expiry must be a date in the coming year.`],
  [OAUTH_TEXTS.roleInvalid, msg`The role must be one of your roles.`],
  [OAUTH_TEXTS.publicHasNoSecret, msg`A public client has no secret.`],
]);

/** What each scope allows, by id (the server's English description for one not listed). */
const SCOPE_MESSAGES: ReadonlyMap<ScopeId, MessageDescriptor> = new Map<ScopeId, MessageDescriptor>(
  [
    ['assets:read', msg`Read assets, their templates and files`],
    ['assets:write', msg`Create, change and delete assets, their templates and files`],
    ['datastreams:read', msg`Read data streams and their machine values`],
    ['datastreams:write', msg`Create, change and delete data streams and their machine values`],
    ['alarms:read', msg`Read alarms, their history and acknowledgements`],
    ['alarms:write', msg`Create, change and delete alarms, their history and acknowledgements`],
    ['gateways:read', msg`Read gateways, their connections and data points`],
    ['gateways:write', msg`Create, change and delete gateways, their connections and data points`],
    ['dashboards:read', msg`Read dashboards`],
    ['dashboards:write', msg`Create, change and delete dashboards`],
    ['service:read', msg`Read service requests, forms and tasks, integrations and error codes`],
    [
      'service:write',
      msg`Create, change and delete service requests, forms and tasks, integrations and error codes`,
    ],
    ['account:read', msg`Read the account, its members and roles`],
    ['account:write', msg`Create, change and delete the account, its members and roles`],
    ['insights:read', msg`Read insights and the help centre`],
    ['insights:write', msg`Create, change and delete insights and the help centre`],
  ],
);

export function translateOAuthText(i18n: I18n, text: string): string {
  const known = OAUTH_MESSAGES.get(text);
  return known === undefined ? translateServerText(i18n, text) : i18n._(known);
}

export function scopeDescription(i18n: I18n, scope: ScopeView): string {
  const known = SCOPE_MESSAGES.get(scope.id as ScopeId);
  return known === undefined ? scope.description : i18n._(known);
}

/**
 * A token or client dialog's failure (spec 000 §5): 'Whoops! Something went wrong!', then the
 * server's messages, or 'Something went wrong. Please try again.' when its answer was no object.
 */
export function ProblemAlert({ problem }: { readonly problem: DialogProblem | null }) {
  const { t, i18n } = useLingui();
  if (problem === null) return null;
  return (
    <Alert color="red" role="alert" title={t`Whoops! Something went wrong!`} data-testid="problem">
      {problem.kind === 'messages' ? (
        <List size="sm">
          {problem.messages.map((m) => (
            <List.Item key={m}>{translateOAuthText(i18n, m)}</List.Item>
          ))}
        </List>
      ) : (
        <Text size="sm">
          {problem.kind === 'offline' ? (
            <Trans>The server cannot be reached. Check the connection and try again.</Trans>
          ) : (
            <Trans>Something went wrong. Please try again.</Trans>
          )}
        </Text>
      )}
    </Alert>
  );
}
