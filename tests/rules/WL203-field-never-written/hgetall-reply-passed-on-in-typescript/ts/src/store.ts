import Redis from 'ioredis';
import { readFileSync } from 'fs';
import { fromFields, RawParcel } from './parcel';

const STORE = readFileSync('../scripts/store.lua', 'utf8');

export function row(q: string, id: string): string {
  return `dp:{${q}}:parcel:${id}`;
}

export async function put(client: Redis, q: string, id: string, label: string, body: string, sent: string) {
  return client.eval(STORE, 1, row(q, id), label, body, sent);
}

export async function fetch(client: Redis, q: string, id: string) {
  const fields = await client.hgetall(row(q, id));
  return fromFields(id, fields as unknown as RawParcel);
}
