/*
 * The texts of managed.ts that the server and the client show people, apart from its schemas: a
 * module without side effects, so the client's translation table (client/src/i18n/server-texts.ts)
 * takes them without the schemas (package.json `sideEffects: false`).
 */
export const TAG_SLUG_MESSAGE = 'Lower-case letters, digits and dashes only.';
export const TAGS_ARE_INTERNAL = "Tags are given by the machine builder's staff.";
export const MEMBERS_JOIN_BY_INVITATION =
  'People join an account through an invitation, which needs the network.';
export const ACCOUNTS_ARE_NOT_DELETED = 'An account is deactivated, not deleted.';
export const TAG_TAKEN = 'A tag with this name exists already.';
export const TAG_HOLDER_NOT_MEMBER = 'Only members of the account can hold its tags.';
