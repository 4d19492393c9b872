import { failedToStart, runServer } from './run';

/** The process entry: configuration, server, and an orderly stop on SIGTERM or SIGINT. */
runServer().catch(failedToStart);
