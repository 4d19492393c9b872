import { Hono } from 'hono';
import {
  accountTwoFactorSchema,
  passkeyRegistrationSchema,
  secondFactorProofSchema,
  totpConfirmSchema,
  TWO_FACTOR_TEXTS,
  twoFactorEnrolConfirmSchema,
  twoFactorEnrolSchema,
  twoFactorMemberParamsSchema,
} from '@plant/shared-schema';
import { requireAuth } from '../http/auth';
import { clientAddress, type AppEnv } from '../http/context';
import { validBody, validParams } from '../http/validate';
import type { Services } from '../services';
import { OAuthError } from '../services/auth.service';
import { oauthErrorAnswer } from './oauth';

/**
 * Two-factor sign-in (issue 38 item 2; auth/two-factor.service.ts): the signed-in user's own
 * factors, the sign-in's passkey challenge and the set-up of a required factor before a sign-in
 * (answered in the token route's OAuth shape), an account's rule and an admin's reset.
 */
export function twoFactorRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(services);
  const twoFactor = services.twoFactor;

  // --- The signed-in user's own factors ------------------------------------------------------
  app.get('/user/2fa', auth, async (c) =>
    c.json({ data: await twoFactor.status(c.get('session').user.id) }),
  );

  app.post('/user/2fa/totp', auth, async (c) =>
    c.json({ data: await twoFactor.startTotp(c.get('session').user) }),
  );

  app.post('/user/2fa/totp/confirm', auth, async (c) => {
    const { code } = await validBody(c, totpConfirmSchema);
    return c.json({ data: await twoFactor.confirmTotp(c.get('session').user.id, code) });
  });

  app.delete('/user/2fa/totp', auth, async (c) => {
    const { otp } = await validBody(c, secondFactorProofSchema);
    await twoFactor.disableTotp(c.get('session').user.id, otp);
    return c.json({ success: true, message: TWO_FACTOR_TEXTS.totpOff });
  });

  app.post('/user/2fa/recovery-codes', auth, async (c) => {
    const { otp } = await validBody(c, secondFactorProofSchema);
    return c.json({ data: await twoFactor.renewRecoveryCodes(c.get('session').user.id, otp) });
  });

  app.post('/user/2fa/passkeys/options', auth, async (c) =>
    c.json({ data: await twoFactor.passkeyOptions(c.get('session').user) }),
  );

  app.post('/user/2fa/passkeys', auth, async (c) => {
    const body = await validBody(c, passkeyRegistrationSchema);
    return c.json({ data: await twoFactor.registerPasskey(c.get('session').user.id, body) }, 201);
  });

  app.delete('/user/2fa/passkeys/:id', auth, async (c) => {
    const { id } = validParams(c, twoFactorMemberParamsSchema);
    await twoFactor.removePasskey(c.get('session').user.id, id);
    return c.body(null, 204);
  });

  // --- Signed out: the sign-in's passkey challenge, a required factor's set-up -------------------
  app.post('/2fa/passkey/options', async (c) =>
    c.json({ data: await twoFactor.signInOptions(clientAddress(c)) }),
  );

  app.post('/2fa/enrol/totp', async (c) => {
    const req = await validBody(c, twoFactorEnrolSchema);
    try {
      const { user } = await services.auth.verifiedCredentials(req, clientAddress(c));
      return c.json({ data: await twoFactor.enrolStart(user) });
    } catch (err) {
      if (err instanceof OAuthError) return oauthErrorAnswer(c, err);
      throw err;
    }
  });

  app.post('/2fa/enrol/totp/confirm', async (c) => {
    const req = await validBody(c, twoFactorEnrolConfirmSchema);
    try {
      const { user, clientId } = await services.auth.verifiedCredentials(req, clientAddress(c));
      const codes = await twoFactor.enrolConfirm(user, req.code);
      const token = await services.auth.completeSignIn(user, clientId, undefined);
      return c.json({ data: { ...codes, token } });
    } catch (err) {
      if (err instanceof OAuthError) return oauthErrorAnswer(c, err);
      throw err;
    }
  });

  // --- Accounts: the rule, the members, the admin's reset ---------------------------------------
  app.get('/accounts/:id/two-factor', auth, async (c) => {
    const { id } = validParams(c, twoFactorMemberParamsSchema);
    return c.json({ data: await twoFactor.rule(c.get('session'), id) });
  });

  app.put('/accounts/:id/two-factor', auth, async (c) => {
    const { id } = validParams(c, twoFactorMemberParamsSchema);
    const { required } = await validBody(c, accountTwoFactorSchema);
    return c.json({ data: await twoFactor.setRule(c.get('session'), id, required) });
  });

  app.get('/account/users/two-factor', auth, async (c) =>
    c.json({ data: await twoFactor.members(c.get('session')) }),
  );

  app.get('/account/users/two-factor/log', auth, async (c) =>
    c.json({ data: await twoFactor.history(c.get('session')) }),
  );

  app.delete('/account/users/:id/two-factor', auth, async (c) => {
    const { id } = validParams(c, twoFactorMemberParamsSchema);
    await twoFactor.resetMember(c.get('session'), id);
    return c.json({ success: true, message: TWO_FACTOR_TEXTS.resetDone });
  });

  return app;
}
