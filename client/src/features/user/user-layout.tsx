import { useState } from 'react';
import { Trans } from '@lingui/react/macro';
import { Center, Paper, Stack, Text } from '@mantine/core';
import { Outlet } from '@tanstack/react-router';
import { BrandImage } from '../../components/brand-image';
import { loginBrand } from '../../session/login-brand';
import classes from './user-layout.module.css';

/**
 * The user area's frame: the login image and title of the account last worked in on this device
 * (else the product's name), and one card in the middle of the page. The name is text beside the
 * image, so an image that cannot be shown leaves the name.
 */
export function UserLayout() {
  const [brand] = useState(loginBrand);
  return (
    <Center component="main" mih="100vh" p="md">
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
        <Text ta="center" fw={700} size="lg" c="dimmed" data-testid="login-brand">
          {brand === null ? <Trans>Machine Platform</Trans> : <bdi>{brand.title}</bdi>}
        </Text>
        <Paper withBorder shadow="sm" p="xl" radius="md">
          <Outlet />
        </Paper>
      </Stack>
    </Center>
  );
}
