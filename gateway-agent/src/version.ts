/** The agent's version, reported in its status so that the server can tell what runs at the plant. */
export const AGENT_VERSION = '0.1.0';
