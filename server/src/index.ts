export { startServer, type RunningServer, type ServerOptions } from './server';
export { loadConfig, type Config } from './config';
