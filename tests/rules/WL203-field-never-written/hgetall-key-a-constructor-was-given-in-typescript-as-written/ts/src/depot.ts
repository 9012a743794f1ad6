import Redis from 'ioredis';
import { readFileSync } from 'fs';
import { Names } from './names';

const FILE_PARCEL = readFileSync('../scripts/file_parcel.lua', 'utf8');

interface Rows {
  rowOf: (id: string) => string;
  redis: Redis;
}

export class Depot {
  private rows: Rows;

  constructor(redis: Redis, rowOf: (id: string) => string) {
    this.rows = { rowOf, redis };
  }

  static open(redis: Redis, depot: string): Depot {
    const names = new Names('dp');
    return new Depot(redis, (id: string) => names.of(depot, id));
  }

  async file(id: string, label: string, body: string): Promise<void> {
    await this.rows.redis.eval(FILE_PARCEL, 1, this.rows.rowOf(id), label, body);
  }

  async parcel(id: string): Promise<{ label: string; body: string }> {
    const row = await this.rows.redis.hgetall(this.rows.rowOf(id));
    return toParcel(row);
  }
}

function toParcel(row: Record<string, string>) {
  return { label: row.label, body: row.body };
}
