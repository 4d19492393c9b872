import { msg } from '@lingui/core/macro';
import { createRoute, redirect } from '@tanstack/react-router';
import { ROUTE_REQUIREMENTS } from '@plant/shared-schema';
import { area, type AreaDefinition } from '../../routes/area-routes';
import type { RouterContext } from '../../routes/guards';
import { lazyPage } from '../../routes/lazy';
import { languageAtom } from '../../state/preferences';
import { helpArticlePath, helpCenterPath, helpLanguage } from './helpcenter-paths';

const HelpCenterPage = lazyPage(() => import('./helpcenter-page'), 'HelpCenterPage');
const ArticlePage = lazyPage(() => import('./article-page'), 'ArticlePage');
const ArticleEditorPage = lazyPage(
  () => import('./editor/article-editor-page'),
  'ArticleEditorPage',
);

/**
 * The help centre (issue 33): one help centre in one language, its articles by number, and
 * `help/{number}` (the links articles, alarms and hotspots carry) opening one in the user's
 * language.
 */
export const helpcenterArea: AreaDefinition = {
  app: (app) => [
    area(app, 'helpcenter/$helpcenterid/$helpcenterlang', msg`Help center`, {
      requirement: ROUTE_REQUIREMENTS.helpcenter,
      component: () => <HelpCenterPage />,
      children: (parent) => [
        createRoute({
          getParentRoute: () => parent,
          path: '$number',
          staticData: { title: msg`Article` },
          component: () => <ArticlePage />,
        }),
        createRoute({
          getParentRoute: () => parent,
          path: 'edit/$articleid',
          staticData: { title: msg`Edit article` },
          component: () => <ArticleEditorPage />,
        }),
      ],
    }),
    // A help centre's path cut short (no language, or no id) opens it in the user's language.
    ...['helpcenter', 'helpcenter/$helpcenterid'].map((path) =>
      createRoute({
        getParentRoute: () => app,
        path,
        beforeLoad: ({ context }: { context: RouterContext }) => {
          throw redirect({ to: helpCenterPath(context.store.get(languageAtom)) });
        },
      }),
    ),
    createRoute({
      getParentRoute: () => app,
      path: 'help/$number',
      beforeLoad: ({ context, params }: { context: RouterContext; params: { number: string } }) => {
        const language = helpLanguage(context.store.get(languageAtom));
        const number = Number(params.number);
        throw redirect({
          to:
            Number.isInteger(number) && number > 0
              ? helpArticlePath(language, number)
              : helpCenterPath(language),
        });
      },
    }),
  ],
  menu: [
    {
      group: 'service',
      position: 30,
      entry: ({ language }) => ({
        key: 'helpcenter',
        label: msg`Help center`,
        icon: 'help',
        to: helpCenterPath(language),
        section: '/app/helpcenter',
        requirement: ROUTE_REQUIREMENTS.helpcenter,
      }),
    },
  ],
};
