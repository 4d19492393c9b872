/** Managing an account's roles (spec 001 §6): create, rename, delete, permissions, access. */
export const ROLE_EDIT_PERMISSION = 'role::edit';
