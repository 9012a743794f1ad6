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

// The reply comes back from a function of its own before it is decoded.
async function rowOf(client: Redis, q: string, id: string) {
  return client.hgetall(row(q, id));
}

export async function fetch(client: Redis, q: string, id: string) {
  return fromFields(id, (await rowOf(client, q, id)) as unknown as RawParcel);
}
