import { createRequire } from 'node:module';
import { Redis } from 'ioredis';

/**
 * aedes' persistence in Redis (aedes-persistence-redis, the version aedes names as its peer):
 * retained messages and subscriptions shared by every process, so a gateway's retained
 * configuration reaches it whichever process it connects to. Its default export is the wrapper
 * aedes 1.x drives (async setup, streams of retained messages), not its inner async class. The
 * package ships no types; this names the one call we make besides handing it to aedes.
 */
interface RedisPersistence {
  destroy(): Promise<void>;
}

const require = createRequire(import.meta.url);
const makePersistence = require('aedes-persistence-redis') as (options: {
  readonly conn: Redis;
}) => RedisPersistence;

export class RedisBrokerPersistence {
  private readonly instance: RedisPersistence;
  private closed = false;

  constructor(url: string, onError: (err: Error) => void) {
    const conn = new Redis(url);
    conn.on('error', onError);
    this.instance = makePersistence({ conn });
  }

  /** The object aedes takes as `persistence`. */
  forAedes(): unknown {
    return this.instance;
  }

  /** After the broker closed (aedes does not close its persistence). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.instance.destroy();
  }
}
