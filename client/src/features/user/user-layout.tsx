import { useEffect, useState, type CSSProperties } from 'react';
import { Trans } from '@lingui/react/macro';
import { Box, Center, Paper, Stack, Text } from '@mantine/core';
import { Outlet } from '@tanstack/react-router';
import { apiPaths, staticConfSchema } from '@plant/shared-schema';
import { BrandImage } from '../../components/brand-image';
import { callApi } from '../../session/api';
import {
  brandOf,
  hostBrand,
  loginBrand,
  rememberHostBrand,
  type LoginBrand,
} from '../../session/login-brand';
import classes from './user-layout.module.css';

/**
 * The brand the sign-in page shows (issue 36): the theme of the account this host is tied to
 * (/staticconf, asked once; the last answer while offline), else that of the account last worked
 * in on this device, else the machine builder's (/staticconf for a host tied to none).
 */
function useSignInBrand(): LoginBrand | null {
  const [brand, setBrand] = useState<LoginBrand | null>(() => hostBrand() ?? loginBrand());
  useEffect(() => {
    let closed = false;
    void callApi('GET', apiPaths.staticconf(), staticConfSchema, {
      envelope: false,
      quiet: true,
    }).then((answer) => {
      if (closed || 'error' in answer) return;
      const { theme, host_tied: tied } = answer.data;
      const hosted = theme.themeId === null ? null : brandOf(theme, theme.name);
      rememberHostBrand(tied ? hosted : null);
      setBrand(tied ? hosted : (loginBrand() ?? hosted));
    });
    return () => {
      closed = true;
    };
  }, []);
  return brand;
}

/**
 * The user area's frame: the brand's login image, its band of Color2 with its logo (the dark
 * variant: the band is dark) and title, and one card in the middle of the page whose buttons take
 * Color1. The name is text beside the logo, so an image that cannot be shown leaves the name.
 */
export function UserLayout() {
  const brand = useSignInBrand();
  const colours =
    brand?.color1 === null || brand?.color1 === undefined
      ? undefined
      : ({
          '--mantine-primary-color-filled': brand.color1,
          '--mantine-primary-color-filled-hover': brand.color1,
        } as CSSProperties);
  const title = brand === null ? <Trans>Machine Platform</Trans> : <bdi>{brand.title}</bdi>;
  // The logo named by the title, else the title (also when the logo cannot be shown).
  const logoOr = (logo: string | null) =>
    logo === null || brand === null ? (
      title
    ) : (
      <BrandImage
        src={logo}
        alt={brand.title}
        className={classes.logo}
        fallback={title}
        testId="login-logo"
      />
    );
  return (
    <Center component="main" mih="100vh" p="md" style={colours} data-testid="sign-in-frame">
      <Stack w="100%" maw={420} gap="md">
        {brand === null || brand.loginImage === null ? null : (
          <BrandImage
            src={brand.loginImage}
            alt=""
            className={classes.loginImage}
            fallback={null}
            testId="login-image"
          />
        )}
        {brand?.color2 === null || brand?.color2 === undefined ? (
          <Text ta="center" fw={700} size="lg" c="dimmed" data-testid="login-brand">
            {logoOr(brand?.logo ?? null)}
          </Text>
        ) : (
          <Box
            className={classes.band}
            style={{ backgroundColor: brand.color2 }}
            data-testid="login-brand"
          >
            {logoOr(brand.logoOnDark)}
          </Box>
        )}
        <Paper withBorder shadow="sm" p="xl" radius="md">
          <Outlet />
        </Paper>
      </Stack>
    </Center>
  );
}
