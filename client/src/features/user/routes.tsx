import { deferred } from '@plant/shared-schema';
import { createRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { redirectTo, type AreaDefinition } from '../../routes/area-routes';
import { redirectSignedIn, type RouterContext } from '../../routes/guards';
import { lazyPage } from '../../routes/lazy';

const UserLayout = lazyPage(() => import('./user-layout'), 'UserLayout');
const LoginPage = lazyPage(() => import('./login-page'), 'LoginPage');
const RegisterPage = lazyPage(() => import('./register-page'), 'RegisterPage');
const NorolePage = lazyPage(() => import('./norole-page'), 'NorolePage');
const ForgotPasswordPage = lazyPage(() => import('./forgot-password-page'), 'ForgotPasswordPage');
const ResetPasswordPage = lazyPage(() => import('./reset-password-page'), 'ResetPasswordPage');

const redirectSearch = /* @__PURE__ */ deferred(() =>
  z.object({ redirect: z.string().max(2000).optional().catch(undefined) }),
);
type RedirectSearch = z.infer<typeof redirectSearch>;

/** Where a password link leads: a reset, or an invitation's first password. */
const passwordSearch = /* @__PURE__ */ deferred(() =>
  z.object({
    token: z.string().max(200).optional().catch(undefined),
    email: z.string().max(250).optional().catch(undefined),
    // An invitation's link (spec 001 §6): answered signed in or not.
    invitation: z.string().max(200).optional().catch(undefined),
  }),
);
type PasswordSearch = z.infer<typeof passwordSearch>;

/** Screens a signed-in user does not see: they go to the app. norole is shown to anyone. */
const signedOutOnly = ({ context }: { context: RouterContext }) => redirectSignedIn(context.store);
/** The password screens: signed out only, unless the link is an invitation's. */
const passwordLinkOnly = ({
  context,
  search,
}: {
  context: RouterContext;
  search: PasswordSearch;
}) => (search.invitation === undefined ? signedOutOnly({ context }) : undefined);

/** The user area (/user/...): sign-in, register, the password screens; beside the app. */
export const userArea: AreaDefinition = {
  root: (root) => {
    const userRoute = createRoute({
      getParentRoute: () => root,
      path: 'user',
      component: UserLayout,
    });
    return [
      userRoute.addChildren([
        createRoute({
          getParentRoute: () => userRoute,
          path: '/',
          beforeLoad: redirectTo('/user/login'),
        }),
        createRoute({
          getParentRoute: () => userRoute,
          path: 'login',
          validateSearch: redirectSearch,
          beforeLoad: ({ context, search }: { context: RouterContext; search: RedirectSearch }) =>
            redirectSignedIn(context.store, search.redirect),
          component: LoginPage,
        }),
        createRoute({ getParentRoute: () => userRoute, path: 'norole', component: NorolePage }),
        createRoute({
          getParentRoute: () => userRoute,
          path: 'register',
          beforeLoad: signedOutOnly,
          component: RegisterPage,
        }),
        createRoute({
          getParentRoute: () => userRoute,
          path: 'forgot-password',
          beforeLoad: signedOutOnly,
          component: ForgotPasswordPage,
        }),
        ...['reset-password', 'set-password'].map((path) =>
          createRoute({
            getParentRoute: () => userRoute,
            path,
            validateSearch: passwordSearch,
            beforeLoad: passwordLinkOnly,
            component: ResetPasswordPage,
          }),
        ),
      ]),
    ];
  },
};
