import redis

from depot.backend import Backend

STORE = open("../scripts/store.lua").read()


def row(q, id):
    return f"dp:{{{q}}}:parcel:{id}"


class RedisBackend(Backend):
    def __init__(self, conn: redis.Redis):
        self.conn = conn

    async def put(self, q, id, label, body, sent):
        return await self.conn.eval(STORE, 1, row(q, id), label, body, sent)

    async def parcel_fields(self, q, id):
        raw = await self.conn.hgetall(row(q, id))
        return raw if raw else None
