-- One call per row of the library table of Redis's Lua
-- (`src/extract/lua/stdlib.rs`): a command whose argument goes through the
-- row, with what the extractor reads in a trailing comment (as
-- `tests/client_methods/`). Read by the unit tests of
-- `src/extract/clients/tests.rs`.

redis.call("GET", tostring("emq:a")) -- GET emq:a
local job = cmsgpack.unpack(ARGV[1])
redis.call("HSET", KEYS[1], "state", job[1]) -- HSET <KEYS[1]> state <ARGV[1][1]>
local data = cjson.decode(ARGV[2])
redis.call("HSET", KEYS[1], "state", data[1]) -- HSET <KEYS[1]> state <ARGV[2][1]>
