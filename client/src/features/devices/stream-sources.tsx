import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  sourcesByStream,
  type ConnectionAttributes,
  type DatapointAttributes,
  type StreamSource,
} from '@plant/shared-schema';
import { useLiveQuery } from '../../sync/hooks';

/**
 * What feeds each of a gateway's streams (its connections' polling intervals and reported
 * states), for the shared freshness rule (shared-schema `streamFreshness`): the gateway's
 * connections in one live query, each connection's datapoints in one of its own (datapoints are
 * children of their connection; the store has no query by stream). Empty for a user who may not
 * see the gateway: the rule then falls back to a fixed age.
 */
export function useStreamSources(
  gatewayId: string | null,
  gatewayOnline: boolean,
): {
  readonly sources: ReadonlyMap<string, StreamSource>;
  /** Renders nothing: the datapoint watches, one per connection (place it anywhere). */
  readonly watches: React.ReactNode;
} {
  const connections = useLiveQuery(
    gatewayId === null
      ? null
      : { type: 'connection', parent: { type: 'gateway', id: gatewayId }, limit: 1000 },
  );
  const [points, setPoints] = useState<
    ReadonlyMap<string, readonly Pick<DatapointAttributes, 'connection_id' | 'datastream_id'>[]>
  >(new Map());
  const report = useCallback(
    (connectionId: string, list: readonly DatapointAttributes[] | null) =>
      setPoints((was) => {
        const next = new Map(was);
        if (list === null) next.delete(connectionId);
        else next.set(connectionId, list);
        return next;
      }),
    [],
  );
  const sources = useMemo(() => {
    const byId = new Map<string, ConnectionAttributes>();
    for (const c of connections?.items ?? []) byId.set(c.id, c.attributes);
    return sourcesByStream([...points.values()].flat(), byId, (id) =>
      id === gatewayId ? gatewayOnline : undefined,
    );
  }, [connections, points, gatewayId, gatewayOnline]);
  const watches = (connections?.items ?? []).map((c) => (
    <DatapointWatch key={c.id} connectionId={c.id} report={report} />
  ));
  return { sources, watches };
}

function DatapointWatch({
  connectionId,
  report,
}: {
  readonly connectionId: string;
  readonly report: (connectionId: string, list: readonly DatapointAttributes[] | null) => void;
}) {
  const datapoints = useLiveQuery({
    type: 'datapoint',
    parent: { type: 'connection', id: connectionId },
    limit: 1000,
  });
  useEffect(() => {
    if (datapoints !== undefined)
      report(
        connectionId,
        datapoints.items.map((d) => d.attributes),
      );
  }, [datapoints, connectionId, report]);
  useEffect(() => () => report(connectionId, null), [connectionId, report]);
  return null;
}
