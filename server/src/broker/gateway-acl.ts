import type { BrokerIdentity } from '../services/browser-credential.service';
import { gatewayTopics } from '@plant/shared-schema';
import type { GatewayIdentity } from '../services/gateway-credential.service';

/**
 * What a gateway agent may do on the broker (DESIGN.md §8): publish only its own
 * `gateway/{id}/up/<name>`, subscribe only under its own `gateway/{id}/down/`. Nothing of another
 * gateway or account, no wildcard reaching out of its own prefix.
 */
export function mayGatewayPublish(gatewayId: string, topic: string): boolean {
  const prefix = gatewayTopics.upPrefix(gatewayId);
  if (!topic.startsWith(prefix)) return false;
  return /^[a-z]{1,32}$/.test(topic.slice(prefix.length));
}

export function mayGatewaySubscribe(gatewayId: string, topic: string): boolean {
  const prefix = gatewayTopics.downPrefix(gatewayId);
  if (!topic.startsWith(prefix)) return false;
  const rest = topic.slice(prefix.length);
  return rest === '#' || rest === '+' || /^[a-z]{1,32}$/.test(rest);
}

/**
 * The gateway half of the broker, served by the machine-data services: who a CONNECT is, what
 * it sends, and when it comes and goes.
 */
export interface GatewayLink {
  verify(
    username: string,
    password: Buffer,
    clientId: string,
  ): Promise<GatewayIdentity | undefined>;
  /** Which of these credentials are still live (the periodic re-check). */
  liveAmong(credentialIds: readonly string[]): Promise<Set<string>>;
  /** Revoked credentials, told at once: their connections close. */
  onRevoked(listener: (ids: readonly string[]) => void): () => void;
  connected(identity: GatewayIdentity): void;
  disconnected(identity: GatewayIdentity): void;
  /** A message the agent published on one of its `up/` topics (already allowed). */
  received(identity: GatewayIdentity, topic: string, payload: Buffer): void;
  /** A browser's terminal command (the broker checked its grant and topic). */
  terminalCommand(identity: BrokerIdentity, gatewayId: string, payload: Buffer): void;
}
