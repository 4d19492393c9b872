import { useLingui } from '@lingui/react/macro';
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- the one wrapper of it
import { PasswordInput as MantinePasswordInput, type PasswordInputProps } from '@mantine/core';

/**
 * Mantine's password field with its show button named in the user's language (Mantine names it
 * 'Toggle password visibility' in English only). The button says whether the password shows
 * through its pressed state.
 */
export function PasswordInput(props: PasswordInputProps) {
  const { t } = useLingui();
  return (
    <MantinePasswordInput
      {...props}
      visibilityToggleButtonProps={{
        'aria-label': t`Show the password`,
        ...props.visibilityToggleButtonProps,
      }}
    />
  );
}
