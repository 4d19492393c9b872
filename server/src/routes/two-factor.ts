import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import {
  accountTwoFactorSchema,
  passkeyRegistrationSchema,
  secondFactorProofSchema,
  totpConfirmSchema,
  TWO_FACTOR_TEXTS,
  twoFactorEnrolConfirmSchema,
  twoFactorEnrolPasskeySchema,
  twoFactorEnrolSchema,
  twoFactorMemberParamsSchema,
  type TwoFactorEnrol,
} from '@plant/shared-schema';
import { requireAuth } from '../http/auth';
import { clientAddress, type AppEnv } from '../http/context';
import { validBody, validParams } from '../http/validate';
import type { Services } from '../services';
import { OAuthError, type AuthService } from '../services/auth.service';
import { oauthErrorAnswer } from './oauth';

/** Whom the grant's credentials named: the user and the first-party client. */
type Verified = Awaited<ReturnType<AuthService['verifiedCredentials']>>;

/**
 * Two-factor sign-in (issue 38 item 2; auth/two-factor.service.ts): the signed-in user's own
 * factors, the sign-in's passkey challenge and the set-up of a required factor before a sign-in
 * (answered in the token route's OAuth shape); an account's rule and an admin's reset
 * (auth/two-factor-accounts.service.ts).
 */
export function twoFactorRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(services);
  const twoFactor = services.twoFactor;
  const accounts = services.twoFactorAccounts;

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

  /**
   * The set-up of a required factor before the sign-in: the grant's credentials checked the
   * grant's way (its rate limits too), a refusal answered in the token route's OAuth shape and
   * counted by the security insights exactly as the grant's own (routes/auth.ts): a wrong password
   * here is a failed sign-in too, else these calls would let anyone guess passwords unseen.
   */
  const enrolment =
    <S extends z.ZodType<TwoFactorEnrol>>(
      schema: S,
      run: (c: Context<AppEnv>, req: z.output<S>, found: Verified) => Promise<Response>,
    ) =>
    async (c: Context<AppEnv>) => {
      const req = await validBody(c, schema);
      const address = clientAddress(c);
      try {
        let found: Verified;
        try {
          found = await services.auth.verifiedCredentials(req, address);
        } catch (err) {
          if (err instanceof OAuthError)
            services.securityEvents.signInRefused(req.username, address, err.code);
          throw err;
        }
        return await run(c, req, found);
      } catch (err) {
        if (err instanceof OAuthError) return oauthErrorAnswer(c, err);
        throw err;
      }
    };

  app.post(
    '/2fa/enrol/totp',
    enrolment(twoFactorEnrolSchema, async (c, _req, { user }) =>
      c.json({ data: await twoFactor.enrolStart(user) }),
    ),
  );

  app.post(
    '/2fa/enrol/totp/confirm',
    enrolment(twoFactorEnrolConfirmSchema, async (c, req, { user, clientId }) => {
      const codes = await twoFactor.enrolConfirm(user, req.code);
      const token = await services.auth.completeSignIn(user, clientId, undefined);
      return c.json({ data: { ...codes, token } });
    }),
  );

  // A passkey instead of the app: registered here, no token; the sign-in is then finished with
  // it (the grant's `webauthn`), so no token is issued before the new passkey proved itself.
  app.post(
    '/2fa/enrol/passkey/options',
    enrolment(twoFactorEnrolSchema, async (c, _req, { user }) =>
      c.json({ data: await twoFactor.enrolPasskeyOptions(user) }),
    ),
  );

  app.post(
    '/2fa/enrol/passkey',
    enrolment(twoFactorEnrolPasskeySchema, async (c, req, { user }) => {
      const { name, credential } = req;
      return c.json({ data: await twoFactor.enrolPasskey(user, { name, credential }) }, 201);
    }),
  );

  // --- Accounts: the rule, the members, the admin's reset ---------------------------------------
  app.get('/accounts/:id/two-factor', auth, async (c) => {
    const { id } = validParams(c, twoFactorMemberParamsSchema);
    return c.json({ data: await accounts.rule(c.get('session'), id) });
  });

  app.put('/accounts/:id/two-factor', auth, async (c) => {
    const { id } = validParams(c, twoFactorMemberParamsSchema);
    const { required } = await validBody(c, accountTwoFactorSchema);
    return c.json({ data: await accounts.setRule(c.get('session'), id, required) });
  });

  app.get('/account/users/two-factor', auth, async (c) =>
    c.json({ data: await accounts.members(c.get('session')) }),
  );

  app.get('/account/users/two-factor/log', auth, async (c) =>
    c.json({ data: await accounts.history(c.get('session')) }),
  );

  app.delete('/account/users/:id/two-factor', auth, async (c) => {
    const { id } = validParams(c, twoFactorMemberParamsSchema);
    await accounts.resetMember(c.get('session'), id);
    return c.json({ success: true, message: TWO_FACTOR_TEXTS.resetDone });
  });

  return app;
}
