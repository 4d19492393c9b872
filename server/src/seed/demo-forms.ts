import type { FormFieldInput, TaskSchedule } from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import { taskStateId, weighTask } from '../tasks/task-states';
import { seedWrites } from './seed-writes';

/*
 * The demo's field work (issue 37 item 7): a weekly inspection form with a recurring task on the
 * machines the technician sees, two filled-in entries in the first machine's service booklet (so
 * it is not due; the other three are), and the tasks' states as the server would weigh them.
 */

const DAY = 86_400_000;

export const DEMO_FORM = {
  name: 'Weekly inspection',
  description: 'The machine’s weekly check: guards, oil, belt, pressure, a photo and a signature.',
  fields: [
    {
      id: 'guards_ok',
      type: 'checkbox',
      label: {
        en: 'Guards and emergency stop work',
        de: 'Schutzeinrichtungen und Not-Halt funktionieren',
      },
      required: true,
    },
    {
      id: 'oil',
      type: 'select',
      label: { en: 'Oil level', de: 'Ölstand' },
      required: true,
      options: [
        { id: 'ok', label: { en: 'Fine', de: 'In Ordnung' } },
        { id: 'low', label: { en: 'Low', de: 'Niedrig' } },
        { id: 'refilled', label: { en: 'Refilled', de: 'Nachgefüllt' } },
      ],
    },
    {
      id: 'pressure',
      type: 'number',
      label: { en: 'Oil pressure', de: 'Öldruck' },
      unit: 'bar',
      min: 0,
      max: 10,
      required: true,
    },
    {
      id: 'hours',
      type: 'number',
      label: { en: 'Time spent', de: 'Aufwand' },
      unit: 'h',
      min: 0,
    },
    {
      id: 'minutes',
      type: 'formula',
      label: { en: 'Time spent in minutes', de: 'Aufwand in Minuten' },
      unit: 'min',
      formula: 'hours * 60',
    },
    {
      id: 'notes',
      type: 'text',
      label: { en: 'Notes', de: 'Bemerkungen' },
      multiline: true,
    },
    { id: 'photo', type: 'photo', label: { en: 'Photo of the machine', de: 'Foto der Maschine' } },
    { id: 'signature', type: 'signature', label: { en: 'Signature', de: 'Unterschrift' } },
  ] satisfies FormFieldInput[],
} as const;

export const DEMO_TASK_NAME = 'Weekly inspection of the machines';

export async function seedDemoForms(
  trx: Db,
  clock: Clock,
  accountId: string,
  machines: readonly string[],
  techId: string,
): Promise<void> {
  const writes = seedWrites(trx, clock, accountId, 'demo forms');
  const now = clock.now();
  const fields = DEMO_FORM.fields.map((f) => ({ ...f }));
  const form = await writes.create('forms', { ...DEMO_FORM, fields });
  const version = await writes.create('form_versions', {
    form_id: form,
    name: DEMO_FORM.name,
    fields,
    number: 1,
    created_at: now - 30 * DAY,
  });
  const targets = machines.slice(0, 4);
  const schedule: TaskSchedule = {
    kind: 'date',
    every: 1,
    unit: 'week',
    start_at: Math.floor((now - 29 * DAY) / DAY) * DAY,
  };
  const task = await writes.create('tasks', {
    name: DEMO_TASK_NAME,
    form_id: form,
    asset_ids: targets,
    schedule,
  });
  const first = targets[0];
  const done: { id: string; at: number }[] = [];
  if (first !== undefined) {
    for (const [i, ago] of [8, 1].entries()) {
      const at = now - ago * DAY;
      const id = await writes.create('form_entries', {
        asset_id: first,
        form_id: form,
        form_version_id: version,
        task_id: task,
        values: {
          guards_ok: true,
          oil: i === 0 ? 'low' : 'ok',
          pressure: i === 0 ? 4.2 : 4.6,
          hours: 0.5,
          minutes: 30,
          notes: i === 0 ? 'Oil was low: refill next time.' : 'All fine.',
          photo: [],
          signature: [],
        },
        filled_at: at,
        filled_by: techId,
        received_at: at,
      });
      done.push({ id, at });
    }
  }
  for (const assetId of targets) {
    const last = assetId === first ? (done[done.length - 1] ?? null) : null;
    const weighed = weighTask(
      schedule,
      last === null ? null : { ...last, counter: null },
      null,
      now,
    );
    await writes.create('task_states', {
      id: taskStateId(task, assetId),
      task_id: task,
      asset_id: assetId,
      ...weighed,
      due_since: weighed.due ? now : null,
    });
  }
}
