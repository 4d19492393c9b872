import { DIAGRAM_TEXTS, diagramModel, type DiagramBinding } from '@plant/shared-schema';
import type { Db } from '../db/database';
import { ModelRepository } from '../repositories/model.repository';

/*
 * The server's rule of process diagrams (issue 37 item 4) beside the generic model writes: a
 * diagram shows its own asset's data streams only. Each stream a new binding names must be, as
 * stored, a stream of the diagram's asset (an id of another asset, another account or nothing at
 * all is refused). A binding the stored diagram had already keeps its stream even after that
 * stream was deleted: an edit of the picture must not fail on it (the page shows it as not
 * available), as with a dashboard's widgets.
 */

/** Problems of the bindings this write sets, by field (empty: none). */
export async function diagramBindingProblems(
  trx: Db,
  accountId: string,
  diagramId: string,
  attributes: Record<string, unknown>,
  touched: ReadonlySet<string>,
): Promise<Record<string, string[]>> {
  if (!touched.has('bindings')) return {};
  const bindings = attributes.bindings as readonly DiagramBinding[];
  const assetId = attributes.asset_id as string;
  const models = new ModelRepository(trx);
  const stored = await models.find(accountId, diagramModel.type, diagramId);
  const before = new Set(
    stored === undefined
      ? []
      : (JSON.parse(stored.attributes) as { bindings?: DiagramBinding[] }).bindings?.map(
          (b) => b.stream_id,
        ),
  );
  const asked = [...new Set(bindings.map((b) => b.stream_id))].filter((id) => !before.has(id));
  if (asked.length === 0) return {};
  const streams = await models.findMany(accountId, 'datastream', asked);
  const ofAsset = new Set(streams.filter((s) => s.asset_id === assetId).map((s) => s.id));
  return asked.every((id) => ofAsset.has(id))
    ? {}
    : { bindings: [DIAGRAM_TEXTS.streamOfOtherAsset] };
}
