import { useAtomValue } from 'jotai';
import { useCan } from '../../permissions/permissions';
import { sessionAtom } from '../../state/session';

/*
 * What the server asks of a dashboard's create and delete (spec 001 §6): the type's permission,
 * and for an asset's dashboard the right to change that asset (the session's access decision,
 * as `useMayEdit` reads it for a change). The account's and a template's need the permission only.
 */
function useMayChangeAsset(): (assetId: string | null) => boolean {
  const access = useAtomValue(sessionAtom)?.user.access;
  return (assetId) =>
    assetId === null || access === undefined || access.allAssets || access.edit.includes(assetId);
}

/** "New dashboard" is offered (dashboard::create, and the asset's edit right for an asset's). */
export function useMayCreateDashboard(assetId: string | null): boolean {
  const can = useCan();
  const mayChange = useMayChangeAsset();
  return can('dashboard::create') && mayChange(assetId);
}

/** "Delete dashboard" is offered (dashboard::delete, and the asset's edit right). */
export function useMayDeleteDashboard(assetId: string | null): boolean {
  const can = useCan();
  const mayChange = useMayChangeAsset();
  return can('dashboard::delete') && mayChange(assetId);
}
