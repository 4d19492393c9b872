export { AGENT_VERSION } from './version';
