/** Broker topics (DESIGN.md §5, §8). Build them here, never in place. */
export const topics = {
  modelUpdates: (accountId: string) => `account/${accountId}/_modelupdates`,
  uploadProgress: (accountId: string) => `account/${accountId}/_notify/upload`,
  /**
   * To a user's browsers only: what the user may see changed (a role's assets or fields, its
   * roles, its permissions). The worker loads the account again (DESIGN.md §10).
   */
  accessChanged: (accountId: string) => `account/${accountId}/_notify/access`,
  /** Live values of one asset's streams (DESIGN.md §8): at most one message a second. */
  assetValues: (accountId: string, assetId: string) => `account/${accountId}/values/${assetId}`,
  /** A browser's terminal commands to a gateway (the one topic a browser may publish on). */
  terminalIn: (accountId: string, gatewayId: string) =>
    `account/${accountId}/terminal/${gatewayId}/in`,
  /** The answers, to the account's browsers with the internal tag. */
  terminalOut: (accountId: string, gatewayId: string) =>
    `account/${accountId}/terminal/${gatewayId}/out`,
  /**
   * A call's signalling (issue 34 item 3): each party's inbox. A party subscribes to its own and
   * publishes to the other's; nobody else may do either (the broker's ACL, by the stored call).
   */
  callInbox: (accountId: string, callId: string, userId: string) =>
    `account/${accountId}/calls/${callId}/to/${userId}`,
  /** A user's inboxes of every call (a browser subscribes to its own before any call). */
  callInboxes: (accountId: string, userId: string) => `account/${accountId}/calls/+/to/${userId}`,
  /**
   * A call for an agent (issue 34 item 3): the server publishes it as it starts the call, the
   * broker passes it to that agent's browsers only (callRingSchema); the request's model says the
   * same a sync later.
   */
  callRing: (accountId: string) => `account/${accountId}/_notify/ring`,
} as const;

/**
 * A gateway agent's topics (DESIGN.md §8): it publishes only under `up/` and subscribes only
 * to `down/`, both under its own id.
 */
export const gatewayTopics = {
  upPrefix: (gatewayId: string) => `gateway/${gatewayId}/up/`,
  downPrefix: (gatewayId: string) => `gateway/${gatewayId}/down/`,
  /** Agent -> server: a batch of points out of the buffer. */
  data: (gatewayId: string) => `gateway/${gatewayId}/up/data`,
  /** Agent -> server: what it runs, connection states, heartbeats. */
  status: (gatewayId: string) => `gateway/${gatewayId}/up/status`,
  /** Agent -> server: its recent log lines. */
  logs: (gatewayId: string) => `gateway/${gatewayId}/up/logs`,
  /** Agent -> server: where it stands with a rollout's version (GatewayUpdateReport). */
  update: (gatewayId: string) => `gateway/${gatewayId}/up/update`,
  /** Agent -> server: answers to requests. */
  response: (gatewayId: string) => `gateway/${gatewayId}/up/response`,
  /** Server -> agent: the acknowledgement of a batch. */
  ack: (gatewayId: string) => `gateway/${gatewayId}/down/ack`,
  /** Server -> agent, retained: the whole configuration. */
  config: (gatewayId: string) => `gateway/${gatewayId}/down/config`,
  /** Server -> agent: requests (OPC UA browse and search). */
  request: (gatewayId: string) => `gateway/${gatewayId}/down/request`,
} as const;
