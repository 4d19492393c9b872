import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import {
  ARTICLE_TEXTS,
  DASHBOARD_TEXTS,
  ACCOUNT_CHANGED_MESSAGE,
  CODE_NOT_VALID,
  CODE_REASONS,
  CODE_RUN_TEXTS,
  NO_VALUE_TO_TRY,
  STATIC_IP_MISSING,
  TAGNAME_USED,
  TERMINAL_NOT_ALLOWED,
  TERMINAL_PING_REFUSED,
  TERMINAL_UNKNOWN,
  TERMINAL_USAGE,
  NUL_TEXT_MESSAGE,
  VALUE_TYPE_TEXTS,
  ERROR_TEXTS,
  FORGOT_ACCEPTED_MESSAGE,
  GATEWAY_REF_MESSAGE,
  LIMITS,
  NEW_PASSWORD_LENGTH_MESSAGE,
  RESET_SUCCESS_MESSAGE,
  RESET_TOKEN_INVALID_MESSAGE,
  ACCOUNT_MOVE_CYCLE,
  ACCOUNT_DEACTIVATED_FROM_ABOVE,
  ACCOUNT_REACTIVATED_FROM_ABOVE,
  ALREADY_MEMBER,
  EMAIL_CHANGE_OWN,
  CONTACT_NOT_VALID,
  INVITATION_CLOSED,
  INVITATION_INVALID,
  INVITATION_REVOKED,
  LAST_ROLE,
  NOT_YOURSELF,
  RESET_LINK_SENT,
  TIME_NOT_VALID,
  ROLE_HAS_MEMBERS,
  ROLE_IS_FIXED,
  ROLE_NAME_TAKEN,
  UNKNOWN_PERMISSION,
  ACCOUNTS_ARE_NOT_DELETED,
  MEMBERS_JOIN_BY_INVITATION,
  TAG_HOLDER_NOT_MEMBER,
  TAG_SLUG_MESSAGE,
  TAG_TAKEN,
  TAGS_ARE_INTERNAL,
  LATITUDE_MESSAGE,
  FILE_CHECKSUM_MISMATCH,
  FILE_FIXED,
  FILE_NOT_UPLOADED,
  FILE_REQUIRED,
  FILE_TOO_LARGE,
  FILE_WRONG_TYPE,
  PHOTO_NOT_OF_ASSET,
  LONGITUDE_MESSAGE,
  DESIGN_IMAGE_INVALID,
  HOST_FROM_ABOVE,
  HOST_INVALID,
  HOST_TAKEN,
  THEME_TEXTS,
} from '@plant/shared-schema';
import type { WorkerError } from '@plant/sync-worker/api';

/** Texts of the server's administration rules (server/src/services/account-access.ts). */
const LAST_ADMIN_TEXT = 'The account keeps at least one admin.';
const NOT_YOURS_TEXT = 'You can only give rights you have yourself.';

/** The user area's own check: the second password must repeat the first. */
export const PASSWORDS_DIFFER_MESSAGE = 'The passwords do not match';
export const REPEAT_MISSING_MESSAGE = 'Please repeat the new password';

/** A call that got no answer at all (offline, server down). */
export const NO_ANSWER_MESSAGE =
  'The server cannot be reached. Check the connection and try again.';

const { emailMin, emailMax, nameMin, nameMax, newPasswordMin, newPasswordMax } = LIMITS;

/**
 * Every English text that reaches the screen as a string rather than as a message of ours: what
 * the server and the worker answer (spec 000 §8), the shared schemas' field messages (the same
 * words whether the client or the server found the problem) and the few texts the client's own
 * checks use. One table, so that a toast, a form field and a dialog translate the same text the
 * same way. Keys are built exactly as shared-schema builds them; a text not listed is shown as it
 * came, with its translationParams put in place.
 */
const KNOWN = new Map<string, MessageDescriptor>([
  [ERROR_TEXTS.unknown, msg`An unknown error occured.`],
  [ERROR_TEXTS.emptyBody, msg`Error in endpoint occured`],
  [ACCOUNT_CHANGED_MESSAGE, msg`This change was made in another account than the active one.`],
  ['Invalid id or type given.', msg`Invalid id or type given.`],
  // A help article linked from an alarm, a stream or a hotspot (issue 33 item 5).
  [ARTICLE_TEXTS.unknownArticle, msg`No help article has this number.`],
  [
    'The article number is a whole number, as in help/136.',
    msg`The article number is a whole number, as in help/136.`,
  ],
  [
    'The component already has a running request!',
    msg`The component already has a running request!`,
  ],
  ['Wrong credentials!', msg`Wrong credentials!`],
  // Users, invitations and user details (shared-schema api/members.ts, invitations.ts, profile.ts).
  [INVITATION_INVALID, msg`This invitation is invalid, was used already or has expired.`],
  [ALREADY_MEMBER, msg`This person is a member of the account already.`],
  [
    INVITATION_REVOKED,
    msg`This invitation was revoked. Please ask whoever invited you for a new one.`,
  ],
  [INVITATION_CLOSED, msg`This invitation was accepted or revoked already.`],
  [LAST_ROLE, msg`A member keeps at least one role: remove it from the account instead.`],
  [NOT_YOURSELF, msg`You cannot remove yourself from the account.`],
  [RESET_LINK_SENT, msg`A link to set a new password is on its way.`],
  [CONTACT_NOT_VALID, msg`Must be a valid email address, phone number or telegram number`],
  [TIME_NOT_VALID, msg`The time needs to be valid`],
  [EMAIL_CHANGE_OWN, msg`Only the user can change its own e-mail address.`],
  [LAST_ADMIN_TEXT, msg`The account keeps at least one admin.`],
  [NOT_YOURS_TEXT, msg`You can only give rights you have yourself.`],
  ['Choose a role that may use the product.', msg`Choose a role that may use the product.`],
  ['Valid hex code for colours', msg`Valid hex code for colours`],
  [
    DESIGN_IMAGE_INVALID,
    msg`An image is a path on this server (starting with one /) or an https:// address, without spaces.`,
  ],
  // An account's theme and host (issue 36).
  [THEME_TEXTS.notReachable, msg`Choose a theme of this account or of an account above it.`],
  [HOST_INVALID, msg`Please provide a valid host name, like portal.example.com.`],
  [HOST_TAKEN, msg`This host is tied to another account already.`],
  [HOST_FROM_ABOVE, msg`The host of an account is set from an account above it.`],
  [ACCOUNT_MOVE_CYCLE, msg`An account cannot move under itself or one of its subaccounts.`],
  [
    ACCOUNT_REACTIVATED_FROM_ABOVE,
    msg`Only an administrator of a parent account can reactivate this account.`,
  ],
  [
    ACCOUNT_DEACTIVATED_FROM_ABOVE,
    msg`Only an administrator of a parent account can deactivate this account.`,
  ],
  // The roles screen (shared-schema api/roles.ts).
  [ROLE_IS_FIXED, msg`The roles admin and norole cannot be changed or deleted.`],
  [ROLE_HAS_MEMBERS, msg`Remove the role from its users first.`],
  [ROLE_NAME_TAKEN, msg`A role with this name exists already.`],
  [UNKNOWN_PERMISSION, msg`Unknown permission.`],
  // The synced account models (shared-schema models/managed.ts).
  [
    MEMBERS_JOIN_BY_INVITATION,
    msg`People join an account through an invitation, which needs the network.`,
  ],
  [ACCOUNTS_ARE_NOT_DELETED, msg`An account is deactivated, not deleted.`],
  [TAG_SLUG_MESSAGE, msg`Lower-case letters, digits and dashes only.`],
  [TAGS_ARE_INTERNAL, msg`Tags are given by the machine builder's staff.`],
  [TAG_TAKEN, msg`A tag with this name exists already.`],
  [TAG_HOLDER_NOT_MEMBER, msg`Only members of the account can hold its tags.`],
  [
    'Please ask your administrator for the necessary permissions',
    msg`Please ask your administrator for the necessary permissions`,
  ],
  // Model fields (shared-schema api/fields.ts modelNameField).
  ['Name is required', msg`Name is required`],
  [LATITUDE_MESSAGE, msg`The latitude lies between -90 and 90.`],
  // Files of assets (DESIGN.md §9).
  [FILE_REQUIRED, msg`Please upload a file`],
  [FILE_TOO_LARGE.photo, msg`The photo is too large: photos may have up to 20 MB.`],
  [FILE_TOO_LARGE.document, msg`The document is too large: documents may have up to 100 MB.`],
  [FILE_WRONG_TYPE.photo, msg`A photo must be a JPEG, PNG, WebP or GIF image.`],
  [
    FILE_WRONG_TYPE.document,
    msg`This type of document cannot be uploaded: PDF, text, CSV, images, ZIP, office and 3D model files can.`,
  ],
  [FILE_FIXED, msg`A file cannot be changed: upload a new one.`],
  [FILE_CHECKSUM_MISMATCH, msg`The uploaded bytes do not match the file: the upload starts again.`],
  [FILE_NOT_UPLOADED, msg`The file has not been uploaded yet.`],
  [PHOTO_NOT_OF_ASSET, msg`The photo must be a photo of this asset.`],
  // Dashboards (issue 31).
  [DASHBOARD_TEXTS.rangeOrder, msg`The start of the range must be before its end.`],
  [DASHBOARD_TEXTS.rangeLast, msg`Between 1 and 1,000.`],
  [DASHBOARD_TEXTS.outsideGrid, msg`The widget does not fit the grid.`],
  [DASHBOARD_TEXTS.widgetTwice, msg`Two widgets have the same id.`],
  [DASHBOARD_TEXTS.tooManyWidgets, msg`A dashboard may have at most 48 widgets.`],
  [DASHBOARD_TEXTS.tooManyStreams, msg`A widget may show at most 12 data streams.`],
  [
    DASHBOARD_TEXTS.assetAndTemplate,
    msg`A dashboard belongs to an asset or to a template, not both.`,
  ],
  [
    DASHBOARD_TEXTS.streamOfOtherAsset,
    msg`An asset’s dashboard shows only data streams of that asset.`,
  ],
  [LONGITUDE_MESSAGE, msg`The longitude lies between -180 and 180.`],
  [
    'Please enter a valid MAC address (six pairs of hex digits)',
    msg`Please enter a valid MAC address (six pairs of hex digits)`,
  ],
  [
    'The name may not be longer than 250 characters',
    msg`The name may not be longer than 250 characters`,
  ],
  // The user area: sign-in, registration, password reset, /scan.
  ['Please enter your email address', msg`Please enter your email address`],
  ['Please enter a valid email address', msg`Please enter a valid email address`],
  [
    `The email address must be at least ${emailMin} characters`,
    msg`The email address must be at least ${emailMin} characters`,
  ],
  [
    `The email address may not be longer than ${emailMax} characters`,
    msg`The email address may not be longer than ${emailMax} characters`,
  ],
  ['Please enter your password', msg`Please enter your password`],
  [
    NEW_PASSWORD_LENGTH_MESSAGE,
    msg`The password must be between ${newPasswordMin} and ${newPasswordMax} characters`,
  ],
  [PASSWORDS_DIFFER_MESSAGE, msg`The passwords do not match`],
  [REPEAT_MISSING_MESSAGE, msg`Please repeat the new password`],
  [NO_ANSWER_MESSAGE, msg`The server cannot be reached. Check the connection and try again.`],
  ['Please enter your firstname', msg`Please enter your firstname`],
  ['Please enter your lastname', msg`Please enter your lastname`],
  [
    `The firstname must be at least ${nameMin} characters`,
    msg`The firstname must be at least ${nameMin} characters`,
  ],
  [
    `The lastname must be at least ${nameMin} characters`,
    msg`The lastname must be at least ${nameMin} characters`,
  ],
  [
    `The firstname may not be longer than ${nameMax} characters`,
    msg`The firstname may not be longer than ${nameMax} characters`,
  ],
  [
    `The lastname may not be longer than ${nameMax} characters`,
    msg`The lastname may not be longer than ${nameMax} characters`,
  ],
  ['This email address is already registered.', msg`This email address is already registered.`],
  [
    'Too many registrations from this address. Please try again later.',
    msg`Too many registrations from this address. Please try again later.`,
  ],
  ['Too many requests. Please try again later.', msg`Too many requests. Please try again later.`],
  [
    'The server is busy. Please try again in a moment.',
    msg`The server is busy. Please try again in a moment.`,
  ],
  [
    'This user has no role yet and cannot sign in. Please ask your administrator for access.',
    msg`This user has no role yet and cannot sign in. Please ask your administrator for access.`,
  ],
  [RESET_TOKEN_INVALID_MESSAGE, msg`Reset-token invalid or expired.`],
  [RESET_SUCCESS_MESSAGE, msg`Password-reset successful, log in with new credentials.`],
  [
    FORGOT_ACCEPTED_MESSAGE,
    msg`If this address belongs to an account, a link to reset the password is on its way.`,
  ],
  [GATEWAY_REF_MESSAGE, msg`Please give the id or serial number of a gateway.`],
  ['Gateway not found.', msg`Gateway not found.`],
  // Data streams: their form, and pre-processing code (spec 001 §5) as the server judged it.
  ['Must be a number', msg`Must be a number`],
  ['Must be a numerical value or empty', msg`Must be a numerical value or empty`],
  ['The minimum must be below the maximum', msg`The minimum must be below the maximum`],
  ['Data stream not found.', msg`Data stream not found.`],
  [CODE_NOT_VALID, msg`This code is not valid`],
  [CODE_REASONS.tooLong, msg`The code is longer than 10,000 characters.`],
  [
    CODE_REASONS.unreadable,
    msg`A string, comment or bracket is not closed, or the brackets are nested too deeply.`,
  ],
  [CODE_REASONS.noReturn, msg`The code must end by returning a value.`],
  [CODE_REASONS.names, msg`Variables must start with $.`],
  [CODE_REASONS.semicolons, msg`Every statement must end with a semicolon.`],
  [CODE_RUN_TEXTS.tooSlow, msg`The code took too long.`],
  [CODE_RUN_TEXTS.tooMuchMemory, msg`The code used too much memory.`],
  [CODE_RUN_TEXTS.tooDeep, msg`The code nested its calls too deeply.`],
  [CODE_RUN_TEXTS.noValidValue, msg`The code returned no valid value.`],
  [CODE_RUN_TEXTS.textTooLong, msg`The code returned a text that is too long.`],
  [CODE_RUN_TEXTS.notRun, msg`The code could not be run.`],
  [VALUE_TYPE_TEXTS.number, msg`A number was expected.`],
  [VALUE_TYPE_TEXTS.state, msg`A state number was expected.`],
  [VALUE_TYPE_TEXTS.boolean, msg`True or false was expected.`],
  [VALUE_TYPE_TEXTS.text, msg`A text was expected.`],
  [NO_VALUE_TO_TRY, msg`This data stream has no value yet: enter one to try the code.`],
  // The collect-data wizard (spec 001 §5) and the connection and datapoint schemas.
  [TAGNAME_USED, msg`Tagname already used`],
  ['Please fill out all parameters', msg`Please fill out all parameters`],
  ['Please select a stream', msg`Please select a stream`],
  ['The input type must match the selected type', msg`The input type must match the selected type`],
  ['Between 0.1 seconds and one day', msg`Between 0.1 seconds and one day`],
  ['Please provide an address', msg`Please provide an address`],
  ['Please provide a valid link', msg`Please provide a valid link`],
  ['Please provide a valid node id', msg`Please provide a valid node id`],
  [
    'Please provide a valid S7 address, for example DB1.DBD4',
    msg`Please provide a valid S7 address, for example DB1.DBD4`,
  ],
  ['Field is required', msg`Field is required`],
  ['Must be at least 1', msg`Must be at least 1`],
  ['Search needs at least 3 characters', msg`Search needs at least 3 characters`],
  // A gateway's network settings (spec 001 §3, §8).
  [
    STATIC_IP_MISSING,
    msg`Static IP configuration missing or wrong: please set the IP address and subnet mask of the gateway.`,
  ],
  ['Please enter a valid IPv4 address', msg`Please enter a valid IPv4 address`],
  ['Please enter a valid subnet mask', msg`Please enter a valid subnet mask`],
  // The gateway terminal and requests to a gateway's agent.
  [TERMINAL_UNKNOWN, msg`Unknown command. Type help for the commands.`],
  [TERMINAL_USAGE, msg`Wrong arguments. Type help for the commands.`],
  [
    TERMINAL_PING_REFUSED,
    msg`ping reaches only the hosts of this gateway's connections and addresses in its own networks.`,
  ],
  [NUL_TEXT_MESSAGE, msg`The text may not contain NUL characters.`],
  [TERMINAL_NOT_ALLOWED, msg`The terminal needs the internal tag and gateway::view.`],
  [
    'The gateway is offline. Interactions are limited until it is back.',
    msg`The gateway is offline. Interactions are limited until it is back.`,
  ],
  [
    'The gateway did not answer in time. Try again later.',
    msg`The gateway did not answer in time. Try again later.`,
  ],
]);

/** The sign-in rate limit names its wait: 'Too many sign-in attempts. Please try again in N seconds.' */
const SIGN_IN_LIMIT = /^Too many sign-in attempts\. Please try again in (\d+) seconds\.$/;

/** The message of a failed call: the server's own, or that no answer came. */
export function callErrorText(error: WorkerError): string {
  return error.kind === 'network' ? NO_ANSWER_MESSAGE : error.message;
}

/**
 * Texts an area adds as its chunk loads (issue 32: the 3D area's): a table every first visit
 * would carry otherwise, for texts only that area's screens show.
 */
export function addServerTexts(entries: Iterable<readonly [string, MessageDescriptor]>): void {
  for (const [text, descriptor] of entries) KNOWN.set(text, descriptor);
}

/** A text of the server, the worker or a shared schema, in the chosen language where known. */
export function translateServerText(
  i18n: I18n,
  text: string,
  params?: Readonly<Record<string, string | number>>,
): string {
  const known = KNOWN.get(text);
  if (known !== undefined) {
    const descriptor: MessageDescriptor = { ...known, values: { ...known.values, ...params } };
    return i18n._(descriptor);
  }
  // The sandbox names the error the code threw after this: the error itself stays as it is.
  if (text.startsWith(CODE_RUN_TEXTS.failed)) {
    const error = text.slice(CODE_RUN_TEXTS.failed.length);
    return i18n._(msg`The code failed: ${error}`);
  }
  const limit = SIGN_IN_LIMIT.exec(text);
  if (limit !== null) {
    const seconds = Number(limit[1]);
    return i18n._(
      msg`Too many sign-in attempts. Please try again in ${plural(seconds, {
        one: '# second',
        other: '# seconds',
      })}.`,
    );
  }
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    params !== undefined && name in params ? String(params[name]) : whole,
  );
}
