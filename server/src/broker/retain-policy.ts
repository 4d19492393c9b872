/**
 * Retained messages (DESIGN.md §8): only each gateway's configuration on
 * `gateway/{id}/down/config`, published by the server, one per gateway (a new one replaces it).
 * aedes keeps retained messages in memory (or in Redis) for good, so anything else retained is a
 * buffer a client could fill: a gateway may publish on any `up/<name>`, each name a new slot.
 */
const RETAINED_TOPIC = /^gateway\/[A-Za-z0-9_-]{1,64}\/down\/config$/;

/** Whether the server may publish a retained message on the topic. */
export function mayRetain(topic: string): boolean {
  return RETAINED_TOPIC.test(topic);
}

/**
 * A client's PUBLISH (or will) is taken without its retain flag: delivered as any other, never
 * kept. Not refused: a refusal in authorizePublish closes the link in aedes, and MQTT 3.1.1 has no
 * answer for "retain not supported"; a gateway would lose its link over a flag. No client may
 * publish on a configuration topic (the ACLs), so nothing a client sends is ever retained.
 */
export function dropClientRetain(packet: { retain: boolean }): void {
  packet.retain = false;
}
