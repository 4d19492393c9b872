import { Duplex } from 'node:stream';

/**
 * The largest MQTT packet (its remaining length) the broker takes, per kind of link. aedes and
 * mqtt-packet have no limit of their own: the parser buffers a packet until its announced length
 * has arrived, so a CONNECT announcing 150 MB would be kept in memory, unauthenticated, as it
 * trickles in. The WebSocket's maxPayload bounds one WebSocket message only, and an MQTT packet
 * may span many.
 */
export const PACKET_LIMITS = {
  /** Until the CONNECT is admitted: credentials, a client id, at most a small will. */
  unauthenticated: 16 * 1024,
  /**
   * A browser subscribes (the values topics of the assets on screen, in one SUBSCRIBE) and sends
   * terminal lines: far below this.
   */
  browser: 256 * 1024,
  /** A gateway's batch of GATEWAY_LIMITS.pointsPerBatch points fits (the WebSocket's limit). */
  gateway: 1024 * 1024,
} as const;

/**
 * A stream between a client's link and aedes that reads the MQTT fixed headers as they arrive
 * and ends the link as soon as one announces a packet over the current limit, before any byte of
 * that packet reaches aedes (the remaining length is known after at most 5 bytes). Writes go
 * through untouched. Transport-agnostic: a WebSocket stream today, a TCP socket as well.
 */
export class PacketGuard extends Duplex {
  private limit: number;
  /** Where the parse stands: a packet's type byte next, its length bytes, or its body. */
  private reading: 'type' | 'length' = 'type';
  private length = 0;
  private multiplier = 1;
  private lengthBytes = 0;
  /** Body bytes of the current packet still to pass. */
  private left = 0;
  private tripped = false;

  constructor(
    private readonly inner: Duplex,
    limit: number = PACKET_LIMITS.unauthenticated,
  ) {
    super({ allowHalfOpen: false });
    this.limit = limit;
    inner.on('data', (chunk: Buffer) => {
      if (!this.admit(chunk)) return;
      if (!this.push(chunk)) inner.pause();
    });
    inner.once('end', () => this.push(null));
    inner.once('error', (err: Error) => this.destroy(err));
    inner.once('close', () => this.destroy());
  }

  /** The limit for the link's kind, once its CONNECT is admitted. */
  allow(limit: number): void {
    this.limit = limit;
  }

  override _read(): void {
    this.inner.resume();
  }

  override _write(
    chunk: Buffer,
    encoding: BufferEncoding,
    callback: (error?: Error | null) => void,
  ): void {
    this.inner.write(chunk, encoding, callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.inner.end();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.inner.destroy();
    callback(error);
  }

  /** Walks the chunk's fixed headers; false (and the link ended) when one is over the limit. */
  private admit(chunk: Buffer): boolean {
    if (this.tripped) return false;
    let i = 0;
    while (i < chunk.length) {
      if (this.left > 0) {
        const n = Math.min(this.left, chunk.length - i);
        this.left -= n;
        i += n;
        continue;
      }
      const byte = chunk[i] ?? 0;
      i += 1;
      if (this.reading === 'type') {
        this.reading = 'length';
        this.length = 0;
        this.multiplier = 1;
        this.lengthBytes = 0;
        continue;
      }
      // The remaining length: up to 4 bytes of 7 bits, least significant first (MQTT 2.2.3).
      this.length += (byte & 0x7f) * this.multiplier;
      this.multiplier *= 128;
      this.lengthBytes += 1;
      if ((byte & 0x80) !== 0) {
        if (this.lengthBytes < 4) continue;
        return this.trip('malformed remaining length');
      }
      if (this.length > this.limit) {
        return this.trip(`packet of ${this.length} bytes over the limit of ${this.limit}`);
      }
      this.left = this.length;
      this.reading = 'type';
    }
    return true;
  }

  private trip(reason: string): false {
    this.tripped = true;
    this.destroy(new Error(`MQTT ${reason}`));
    return false;
  }
}
