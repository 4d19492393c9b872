import { datastreamModel, type DatastreamAttributes } from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import { ModelRepository } from '../repositories/model.repository';
import { seedWrites } from './seed-writes';

/*
 * The demo's process diagram (issue 37 item 7): a picture of the first machine whose motor turns
 * red while "Motor too hot" is raised, with its temperature and spindle speed live and its
 * operating mode as a coloured lamp; the demo agents feed the streams, so it moves at once.
 */

export const DEMO_DIAGRAM_NAME = 'Machine overview';

const PICTURE = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 450" width="800" height="450">
  <rect x="20" y="20" width="760" height="410" rx="12" fill="#f8f9fa" stroke="#495057" stroke-width="2"/>
  <text x="40" y="60" font-size="24" fill="#212529">Machine overview</text>
  <rect id="motor" x="80" y="120" width="220" height="140" rx="8" fill="#adb5bd" stroke="#343a40" stroke-width="2"/>
  <text x="110" y="200" font-size="22" fill="#212529">Motor</text>
  <line x1="300" y1="190" x2="460" y2="190" stroke="#343a40" stroke-width="8"/>
  <circle cx="540" cy="190" r="80" fill="#dee2e6" stroke="#343a40" stroke-width="2"/>
  <text x="500" y="196" font-size="20" fill="#212529">Spindle</text>
  <text x="80" y="310" font-size="18" fill="#495057">Temperature</text>
  <text id="temp" x="80" y="340" font-size="26" fill="#212529">–</text>
  <text x="460" y="310" font-size="18" fill="#495057">Speed</text>
  <text id="speed" x="460" y="340" font-size="26" fill="#212529">–</text>
  <text x="80" y="395" font-size="18" fill="#495057">Mode</text>
  <circle id="mode" cx="150" cy="389" r="12" fill="#adb5bd" stroke="#343a40"/>
</svg>`;

export async function seedDemoDiagram(
  trx: Db,
  clock: Clock,
  accountId: string,
  machine: string,
): Promise<void> {
  const streams = new Map(
    (await new ModelRepository(trx).allOfTypes(accountId, [datastreamModel.type]))
      .map((r) => ({ id: r.id, s: JSON.parse(r.attributes) as DatastreamAttributes }))
      .filter(({ s }) => s.asset_id === machine)
      .map(({ id, s }) => [s.name, id]),
  );
  const bind = (element: string, stream: string, show: string, extra: object = {}) => {
    const id = streams.get(stream);
    return id === undefined ? [] : [{ element, stream_id: id, show, ...extra }];
  };
  await seedWrites(trx, clock, accountId, 'demo diagram').create('diagrams', {
    asset_id: machine,
    name: DEMO_DIAGRAM_NAME,
    svg: PICTURE,
    bindings: [
      ...bind('motor', 'Motor temperature', 'alarm'),
      ...bind('temp', 'Motor temperature', 'value'),
      ...bind('speed', 'Spindle speed', 'value'),
      ...bind('mode', 'Operating mode', 'state', {
        colors: { '0': '#868e96', '1': '#2f9e44', '2': '#1971c2', '3': '#e03131' },
      }),
    ],
  });
}
