# One call per row of the Elixir client table (`src/extract/elixir/client.rs`),
# each with what the extractor reads from it in a trailing comment (see
# `src/extract/clients/tests.rs`). Read, never compiled.

defmodule Cases do
  def calls(conn, k) do
    Redix.command(conn, ["HSET", k, "f", "v"]) # HSET <k> f v
    Redix.command!(conn, ["HGET", k, "f"]) # HGET <k> f
    Redix.noreply_command(conn, ["DEL", k]) # DEL <k>
    Redix.noreply_command!(conn, ["LPUSH", k, "id"]) # LPUSH <k> id
    Redix.pipeline(conn, [["HSET", k, "f", "v"], ["EXPIRE", k, "60"]]) # HSET <k> f v ; EXPIRE <k> 60
    Redix.pipeline!(conn, [["SADD", k, "m"]]) # SADD <k> m
    Redix.transaction_pipeline(conn, [["INCR", k]]) # INCR <k>
    Redix.transaction_pipeline!(conn, [["ZADD", k, "1", "m"]]) # ZADD <k> 1 m
    Redix.noreply_pipeline(conn, [["SET", k, "v"]]) # SET <k> v
    Redix.noreply_pipeline!(conn, [["RPUSH", k, "id"]]) # RPUSH <k> id
    :eredis.q(conn, ["HGETALL", k]) # HGETALL <k>
    :eredis.q_noreply(conn, ["SREM", k, "m"]) # SREM <k> m
    :eredis.qp(conn, [["HDEL", k, "f"], ["LLEN", k]]) # HDEL <k> f ; LLEN <k>
    :eredis.qp_noreply(conn, [["LREM", k, "1", "id"]]) # LREM <k> 1 id
    :eredis_cluster.q(conn, ["GET", k]) # GET <k>
    :eredis_cluster.qp(conn, [["SISMEMBER", k, "m"]]) # SISMEMBER <k> m
    Exredis.query(conn, ["HMGET", k, "f", "g"]) # HMGET <k> f g
    Exredis.query_pipe(conn, [["ZREM", k, "m"]]) # ZREM <k> m
    Map.get(conn, k) # -
  end
end
