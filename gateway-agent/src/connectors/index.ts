import path from 'node:path';
import type { Connector, ConnectorContext } from './connector';
import { createModbusTcpConnector } from './modbus-tcp-connector';
import { createOpcuaConnector } from './opcua-connector';
import { createS7Connector } from './s7-connector';
import { createSimulatorConnector } from './simulator-connector';

export type {
  BrowsingConnector,
  Connector,
  ConnectorContext,
  ConnectorEvents,
  Reading,
} from './connector';

/**
 * The connector for a connection's protocol (DESIGN.md §8). `dataDir` is the agent's data folder:
 * OPC UA keeps its certificates under `pki/` there.
 */
export function makeConnector(ctx: ConnectorContext, dataDir: string): Connector {
  const protocol = ctx.connection.protocol;
  switch (protocol) {
    case 'opcua':
      return createOpcuaConnector(ctx, { pkiDir: path.join(dataDir, 'pki') });
    case 'modbus-tcp':
      return createModbusTcpConnector(ctx);
    case 's7':
      return createS7Connector(ctx);
    case 'simulator':
      return createSimulatorConnector(ctx);
    default: {
      const unknown: never = protocol;
      throw new Error(`Unknown protocol ${String(unknown)}`);
    }
  }
}
