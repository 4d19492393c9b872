import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import {
  contrastRatio,
  MIN_TEXT_CONTRAST,
  THEME_TEXT_COLOR,
  type AccountDesign,
} from '@plant/shared-schema';
import { BrandImage } from './brand-image';
import classes from './theme-preview.module.css';

/** What the product shows without a theme's colour (app.css's defaults). */
const DEFAULT_COLOR1 = '#228be6';
const DEFAULT_COLOR2 = '#495057';

/**
 * A live preview of a design (issue 36 item 1) on a light and a dark page: the header with its
 * logo (the dark variant on dark, else the light one) and colour strip, the sign-in band of
 * Color2 and a button of Color1, each with white text, and the contrast of that text. It shows
 * what is typed before it is saved.
 */
export function ThemePreview({ design }: { readonly design: AccountDesign }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" data-testid="theme-preview">
      <PreviewPane design={design} dark={false} />
      <PreviewPane design={design} dark />
    </SimpleGrid>
  );
}

function PreviewPane({ design, dark }: { readonly design: AccountDesign; readonly dark: boolean }) {
  const { t, i18n } = useLingui();
  const color1 = design.color1 ?? DEFAULT_COLOR1;
  const color2 = design.color2 ?? DEFAULT_COLOR2;
  const logo = dark
    ? (design.logoDesktopDark ?? design.logoDesktop ?? design.logoMobileDark ?? design.logoMobile)
    : (design.logoDesktop ?? design.logoMobile);
  const title = design.title ?? t`Machine Platform`;
  const ratio = (hex: string) =>
    i18n.number(contrastRatio(hex, THEME_TEXT_COLOR), { maximumFractionDigits: 1 });
  const readable = (hex: string) => contrastRatio(hex, THEME_TEXT_COLOR) >= MIN_TEXT_CONTRAST;
  const name = <bdi className={classes.title}>{title}</bdi>;
  return (
    <Paper
      withBorder
      radius="sm"
      className={dark ? classes.dark : classes.light}
      data-testid={dark ? 'theme-preview-dark' : 'theme-preview-light'}
      aria-label={dark ? t`Preview on a dark page` : t`Preview on a light page`}
      role="group"
    >
      <Box className={classes.header} style={{ borderBlockStartColor: color1 }}>
        {logo === null ? (
          name
        ) : (
          <BrandImage src={logo} alt={title} className={classes.logo} fallback={name} />
        )}
      </Box>
      <Stack gap="xs" p="sm">
        {design.loginImage === null ? null : (
          <BrandImage
            src={design.loginImage}
            alt=""
            className={classes.loginImage}
            fallback={null}
          />
        )}
        <Box className={classes.band} style={{ backgroundColor: color2 }}>
          {title}
        </Box>
        <Group gap="xs">
          <Box
            component="span"
            className={classes.button}
            style={{ backgroundColor: color1 }}
            data-testid={dark ? undefined : 'theme-preview-button'}
          >
            <Trans>Sign in</Trans>
          </Box>
        </Group>
        <Text size="xs" className={classes.note}>
          <Trans>
            White text on Color1: {ratio(color1)}:1, on Color2: {ratio(color2)}:1
          </Trans>
          {readable(color1) && readable(color2) ? null : (
            <>
              {' '}
              <Trans>(below 4.5:1)</Trans>
            </>
          )}
        </Text>
      </Stack>
    </Paper>
  );
}
