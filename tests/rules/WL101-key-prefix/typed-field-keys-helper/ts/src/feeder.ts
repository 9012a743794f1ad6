import Redis from 'ioredis';
import { QueueKeys } from './keys';

export class Feeder {
  constructor(
    private readonly keys: QueueKeys,
    private readonly client: Redis,
  ) {}

  async push(id: string): Promise<number> {
    return this.client.lpush(this.keys.toKey('pending'), id);
  }
}
