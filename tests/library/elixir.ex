# One call per row of the Elixir library table
# (`src/extract/elixir/stdlib.rs`): a client call whose argument goes
# through the row, with what the extractor reads in a trailing comment (as
# `tests/client_methods/`). Read by the unit tests of
# `src/extract/clients/tests.rs`; not compiled.

defmodule Cases do
  @lua "return redis.call('GET', KEYS[1])"

  def sha(conn) do
    Redix.command(conn, ["EVALSHA", Base.encode16(:crypto.hash(:sha, @lua)), "1", "emq:a"]) # EVALSHA <sha1(@lua)> 1 emq:a
    Redix.command(conn, ["EVALSHA", String.downcase(:crypto.hash(:sha, @lua)), "1", "emq:a"]) # EVALSHA <sha1(@lua)> 1 emq:a
    Redix.command(conn, ["EVALSHA", String.upcase(:crypto.hash(:sha, @lua)), "1", "emq:a"]) # EVALSHA <sha1(@lua)> 1 emq:a
    Redix.command(conn, ["EVALSHA", to_string(:crypto.hash(:sha, @lua)), "1", "emq:a"]) # EVALSHA <sha1(@lua)> 1 emq:a
    Redix.command(conn, ["EVALSHA", Kernel.to_string(:crypto.hash(:sha, @lua)), "1", "emq:a"]) # EVALSHA <sha1(@lua)> 1 emq:a
  end

  def lookups(conn) do
    Redix.command(conn, ["GET", Keyword.fetch!([key: "emq:a"], :key)]) # GET emq:a
    Redix.command(conn, ["GET", Keyword.get([key: "emq:a"], :key)]) # GET emq:a
    Redix.command(conn, ["GET", Map.fetch!(%{key: "emq:a"}, :key)]) # GET emq:a
    Redix.command(conn, ["GET", Map.get(%{key: "emq:a"}, :key)]) # GET emq:a
    Redix.command(conn, ["GET", Access.get(%{key: "emq:a"}, :key)]) # GET emq:a
  end

  def encoders(conn) do
    Redix.command(conn, ["HSET", "emq:a", "payload", Msgpax.pack!(["q", 1], iodata: false)]) # HSET emq:a payload <list encoded as msgpack>
    Redix.command(conn, ["HSET", "emq:a", "payload", Jason.encode!(["q", 1])]) # HSET emq:a payload <list encoded as json>
    Redix.command(conn, ["HSET", "emq:a", "payload", Poison.encode!(["q", 1])]) # HSET emq:a payload <list encoded as json>
    Redix.command(conn, ["HSET", "emq:a", "payload", JSON.encode!(["q", 1])]) # HSET emq:a payload <list encoded as json>
  end
end
