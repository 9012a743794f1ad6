# One call per row of the Ruby library table (`src/extract/ruby/stdlib.rs`):
# a client call whose argument goes through the row, with what the
# extractor reads in a trailing comment (as `tests/client_methods/`). Read
# by the unit tests of `src/extract/clients/tests.rs`; not compiled.

require "redis"

redis = Redis.new
redis.get("emq:a".freeze) # GET emq:a
redis.get("emq:a".to_s) # GET emq:a
redis.get("emq:a".to_str) # GET emq:a
redis.get("emq:a".dup) # GET emq:a
redis.get("emq:a".itself) # GET emq:a
redis.get("emq:a".b) # GET emq:a
redis.hset("emq:a", "payload", JSON.generate(["q", 1])) # HSET emq:a payload <list encoded as json>
redis.hset("emq:a", "payload", JSON.dump(["q", 1])) # HSET emq:a payload <list encoded as json>
redis.hset("emq:a", "payload", MessagePack.pack(["q", 1])) # HSET emq:a payload <list encoded as msgpack>
redis.hset("emq:a", "payload", ["q", 1].to_json) # HSET emq:a payload <list encoded as json>
redis.hset("emq:a", "payload", ["q", 1].to_msgpack) # HSET emq:a payload <list encoded as msgpack>
