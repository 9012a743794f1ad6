# One call per row of the Python library table
# (`src/extract/python/stdlib.rs`): a client call whose argument goes
# through the row, with what the extractor reads in a trailing comment (as
# `tests/client_methods/`). Read by the unit tests of
# `src/extract/clients/tests.rs`; not compiled.

import json

import msgpack
import ormsgpack
import redis

r = redis.Redis()


def calls():
    r.hset("emq:a", "payload", msgpack.packb(["q", 1], use_bin_type=True))  # HSET emq:a payload <list encoded as msgpack>
    r.hset("emq:a", "payload", msgpack.dumps(["q", 1]))  # HSET emq:a payload <list encoded as msgpack>
    r.hset("emq:a", "payload", ormsgpack.packb(["q", 1]))  # HSET emq:a payload <list encoded as msgpack>
    r.hset("emq:a", "payload", json.dumps(["q", 1]))  # HSET emq:a payload <list encoded as json>
    r.hset("emq:a".encode(), "state", "x")  # HSET emq:a state x
    r.hset("emq:a".encode("utf-8"), "state", "x")  # HSET emq:a state x
    r.hset(b"emq:a".decode(), "state", "x")  # HSET emq:a state x
