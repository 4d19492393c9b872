import { createRoute, redirect, type AnyRoute } from '@tanstack/react-router';
import type { MessageDescriptor } from '@lingui/core';
import type { ReactNode } from 'react';
import type { RouteRequirement } from '@plant/shared-schema';
import { AreaPage } from '../features/areas/area-page';
import type { AreaMenuEntry } from '../features/shell/menu-types';
import { requirePermission, type RouterContext } from './guards';

/*
 * The helpers an area's routes are built with (`features/<area>/routes.tsx`), and what an area
 * hands the root (`routes/areas.ts`). Route modules are in the entry chunk: they name their pages
 * through `lazyPage` (each page its own chunk) and import nothing heavier than these helpers.
 */

/**
 * One area of the product as the root gathers it. `app` builds its routes under /app (the app
 * route: signed in, with the shell), `root` those beside it (the user area's /user/...); `menu`
 * is its entries in the side menu, each saying its group and its place there.
 */
export interface AreaDefinition {
  readonly app?: (app: AnyRoute) => AnyRoute[];
  readonly root?: (root: AnyRoute) => AnyRoute[];
  readonly menu?: readonly AreaMenuEntry[];
}

/** Static data of a route: its title (menu, page head) and what it needs. */
declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    title?: MessageDescriptor;
  }
}

/** A guard that only forwards. */
export const redirectTo = (to: string) => () => {
  throw redirect({ to });
};

interface AreaOptions {
  readonly requirement?: RouteRequirement;
  readonly children?: (parent: AnyRoute) => AnyRoute[];
  /** The page; default: the area's empty state. */
  readonly component?: () => ReactNode;
}

/**
 * A route of an area, guarded by its requirement. Without children its page is `component` or the
 * area's empty state; with children it only frames them, and its index shows the empty state
 * unless a child takes the index.
 */
export function area(
  parent: AnyRoute,
  path: string,
  title: MessageDescriptor,
  options: AreaOptions = {},
) {
  const { requirement } = options;
  const page = options.component ?? (() => <AreaPage title={title} />);
  const route = createRoute({
    getParentRoute: () => parent,
    path,
    staticData: { title },
    ...(requirement === undefined
      ? {}
      : {
          beforeLoad: ({ context, preload }: { context: RouterContext; preload: boolean }) =>
            requirePermission(context.store, requirement, { quiet: preload }),
        }),
    ...(options.children === undefined ? { component: page } : {}),
  });
  if (options.children === undefined) return route;
  const children = options.children(route);
  const hasIndex = children.some((c) => (c.options as { path?: string }).path === '/');
  const index = createRoute({ getParentRoute: () => route, path: '/', component: page });
  return route.addChildren(hasIndex ? children : [index, ...children]);
}

/** A path that only forwards (`/app/x` -> `/app/x/list`). */
export function forward(parent: AnyRoute, path: string, to: string) {
  return createRoute({ getParentRoute: () => parent, path, beforeLoad: redirectTo(to) });
}

/** A screen whose last segment may be left out (`{selected?}` of spec 000 §2): both paths. */
export function optional(
  parent: AnyRoute,
  path: string,
  param: string,
  title: MessageDescriptor,
  component?: () => ReactNode,
) {
  const options = component === undefined ? {} : { component };
  return [area(parent, path, title, options), area(parent, `${path}/${param}`, title, options)];
}

interface ListAreaOptions {
  /** What the whole area needs (its menu entry says the same). */
  readonly requirement?: RouteRequirement;
  /** The list's page; default: the area's empty state. */
  readonly list?: () => ReactNode;
  /** Screens of the area beside the list and the items (`demo/smartphone`). */
  readonly more?: (parent: AnyRoute) => AnyRoute[];
  /** One item: its id's segment (`$boardid`), its title and its screens. */
  readonly item: {
    readonly param: string;
    readonly title: MessageDescriptor;
    readonly children?: (parent: AnyRoute) => AnyRoute[];
    /** The item's page (without children); default: the area's empty state. */
    readonly component?: () => ReactNode;
  };
}

/**
 * The usual shape of an area under the app route: `/app/x` forwards to its list, the list, and
 * one item at `/app/x/{id}` with its screens. Paths that are none of these are unknown (the error
 * screen).
 */
export function listArea(
  app: AnyRoute,
  path: string,
  title: MessageDescriptor,
  options: ListAreaOptions,
) {
  const { item, requirement } = options;
  return area(app, path, title, {
    ...(requirement === undefined ? {} : { requirement }),
    children: (p) => [
      forward(p, '/', `/app/${path}/list`),
      area(p, 'list', title, options.list === undefined ? {} : { component: options.list }),
      ...(options.more?.(p) ?? []),
      area(
        p,
        item.param,
        item.title,
        item.children !== undefined
          ? { children: item.children }
          : item.component !== undefined
            ? { component: item.component }
            : {},
      ),
    ],
  });
}

/** `…/roles/v2` and `…/roles/{selected}/v2` are the same screen without the v2. */
export function dropV2(parent: AnyRoute, path: string) {
  return createRoute({
    getParentRoute: () => parent,
    path,
    beforeLoad: ({ location }) => {
      throw redirect({ to: location.pathname.replace(/\/v2\/?$/, '') });
    },
  });
}
