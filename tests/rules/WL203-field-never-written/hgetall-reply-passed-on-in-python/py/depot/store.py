import redis

from depot.parcel import from_fields

STORE = open("../scripts/store.lua").read()


def row(q, id):
    return f"dp:{{{q}}}:parcel:{id}"


def put(r: redis.Redis, q, id, label, body, sent):
    return r.eval(STORE, 1, row(q, id), label, body, sent)


def fetch(r: redis.Redis, q, id):
    fields = r.hgetall(row(q, id))
    return from_fields(id, fields)
