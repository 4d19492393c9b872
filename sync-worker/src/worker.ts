/// <reference lib="webworker" />
/**
 * The sync worker's entry (a dedicated module worker): the page starts it by URL and talks to it
 * only through `SyncWorkerApi` (api.ts) over Comlink.
 */
import * as Comlink from 'comlink';
import { MemoryLogger, type LogEntry } from './log';
import { createWorkerApi } from './worker-api';

const forward = (entry: LogEntry) => {
  // Warnings and errors also reach the browser's console, where support looks first.
  if (entry.level === 'warn' || entry.level === 'error') {
    // eslint-disable-next-line no-console -- the worker's only way to the devtools console
    console[entry.level](`[sync] ${entry.message}`, entry.fields ?? {});
  }
};

Comlink.expose(createWorkerApi({ log: new MemoryLogger(forward) }));
