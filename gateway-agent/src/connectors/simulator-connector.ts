import {
  simulatorAddressSchema,
  type AgentDatapoint,
  type SimulatorAddress,
} from '@plant/shared-schema';
import type { Connector, ConnectorContext, Reading } from './connector';
import { createStatusKeeper, everyInterval, loopConnector, summarize } from './polling';
import { forStream, sampleAt, seedOf } from './simulator-curves';
import { createValuePipeline, type PointValueFilter } from './values';

interface Simulated {
  readonly datapoint: AgentDatapoint;
  readonly address: SimulatorAddress;
  readonly seed: number;
  readonly filter: PointValueFilter;
}

/**
 * The simulator (spec 001 §9: a simulated datapoint every 10 seconds, here every `interval_ms` of
 * the connection): believable curves per datapoint (simulator-curves.ts), seeded by the
 * datapoint's id and computed from the clock (`ctx.now`), so a restart continues each curve.
 * Values go through the same scaling, typing and deadband as a device's. Connected at once; the
 * first values come right after start().
 */
export function createSimulatorConnector(ctx: ConnectorContext): Connector {
  const { connection, log } = ctx;
  const status = createStatusKeeper(ctx, 'Simulator');
  const stopping = new AbortController();
  const stopped = () => stopping.signal.aborted;

  const problems: string[] = [];
  const simulated: Simulated[] = [];
  for (const datapoint of connection.datapoints) {
    const parsed = simulatorAddressSchema.safeParse(datapoint.address);
    if (!parsed.success) {
      problems.push(`Datapoint ${datapoint.id} has no valid simulator address`);
      continue;
    }
    const address = parsed.data;
    if (address.max < address.min) {
      problems.push(`Datapoint ${datapoint.id}: the simulator's max is below its min`);
      continue;
    }
    simulated.push({
      datapoint,
      address,
      seed: seedOf(datapoint.id),
      filter: createValuePipeline(datapoint),
    });
  }

  const tick = () => {
    if (stopped()) return Promise.resolve();
    const ts = ctx.now();
    const readings: Reading[] = [];
    for (const { datapoint, address, seed, filter } of simulated) {
      const value = filter(forStream(sampleAt(address, seed, ts), datapoint.stream_type));
      if (value !== undefined) readings.push({ datapoint, ts, value });
    }
    status.read(ts);
    if (readings.length > 0) ctx.events.values(readings);
    return Promise.resolve();
  };

  const run = async () => {
    const error = summarize(problems);
    status.set(error === null ? 'connected' : 'failed', error);
    await everyInterval(connection.interval_ms, stopping.signal, tick);
  };

  return loopConnector('Simulator', log, status, stopping, run);
}
