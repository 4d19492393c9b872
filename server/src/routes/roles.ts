import { Hono } from 'hono';
import {
  roleAllAssetsSchema,
  roleAssetParamsSchema,
  roleAssetSchema,
  roleFieldParamsSchema,
  roleFieldsSchema,
  roleNameSchema,
  roleParamsSchema,
  rolePermissionsSchema,
} from '@plant/shared-schema';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/context';
import { validBody, validParams } from '../http/validate';
import type { Services } from '../services';

/**
 * The active account's roles (spec 001 §6, DESIGN.md §10): list, make, rename, delete, the
 * permission matrix, and access per asset (the key button, an asset given with or without edit
 * rights) and per field. Every input through its shared schema; the service checks the rights.
 */
export function roleRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(services);
  const roles = services.roles;

  app.get('/account/roles', auth, async (c) =>
    c.json({ data: await roles.list(c.get('session')) }),
  );

  app.post('/account/roles', auth, async (c) => {
    const { name } = await validBody(c, roleNameSchema);
    return c.json({ data: await roles.create(c.get('session'), name) }, 201);
  });

  app.put('/account/roles/:id', auth, async (c) => {
    const { id } = validParams(c, roleParamsSchema);
    const { name } = await validBody(c, roleNameSchema);
    return c.json({ data: await roles.rename(c.get('session'), id, name) });
  });

  app.delete('/account/roles/:id', auth, async (c) => {
    const { id } = validParams(c, roleParamsSchema);
    await roles.remove(c.get('session'), id);
    return c.body(null, 204);
  });

  app.put('/account/roles/:id/permissions', auth, async (c) => {
    const { id } = validParams(c, roleParamsSchema);
    const { permissions } = await validBody(c, rolePermissionsSchema);
    return c.json({ data: await roles.setPermissions(c.get('session'), id, permissions) });
  });

  app.put('/account/roles/:id/access', auth, async (c) => {
    const { id } = validParams(c, roleParamsSchema);
    const body = await validBody(c, roleAllAssetsSchema);
    return c.json({ data: await roles.setAllAssets(c.get('session'), id, body.all_assets) });
  });

  app.put('/account/roles/:id/assets/:assetId', auth, async (c) => {
    const { id, assetId } = validParams(c, roleAssetParamsSchema);
    const { edit } = await validBody(c, roleAssetSchema);
    return c.json({ data: await roles.giveAsset(c.get('session'), id, assetId, edit) });
  });

  app.delete('/account/roles/:id/assets/:assetId', auth, async (c) => {
    const { id, assetId } = validParams(c, roleAssetParamsSchema);
    return c.json({ data: await roles.takeAsset(c.get('session'), id, assetId) });
  });

  app.put('/account/roles/:id/fields/:type', auth, async (c) => {
    const { id, type } = validParams(c, roleFieldParamsSchema);
    const { fields } = await validBody(c, roleFieldsSchema);
    return c.json({ data: await roles.setFields(c.get('session'), id, type, fields) });
  });

  return app;
}
