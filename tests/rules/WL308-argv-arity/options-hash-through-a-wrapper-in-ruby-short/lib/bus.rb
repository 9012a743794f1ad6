require "redis"
require "digest"

class Bus
  PUSH = <<~LUA
    redis.call("HSET", KEYS[1], "payload", ARGV[1])
    redis.call("ZADD", KEYS[2], 0, KEYS[1])
  LUA
  PUSH_SHA = Digest::SHA1.hexdigest(PUSH)

  def initialize(redis)
    @redis = redis
  end

  # The keywords no parameter takes are one hash, `params`.
  def push(row, pending)
    run_cached(@redis, PUSH_SHA, keys: [row, pending], argv: [])
  end

  def run_cached(redis, sha, params)
    redis.evalsha(sha, keys: params[:keys], argv: params[:argv])
  end
end
