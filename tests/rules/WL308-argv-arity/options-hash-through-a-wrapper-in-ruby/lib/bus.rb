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

  def push(row, pending, payload)
    run_cached(@redis, PUSH, PUSH_SHA, keys: [row, pending], argv: [payload])
  end

  def run_cached(redis, script, sha, params)
    redis.evalsha(sha, params)
  rescue Redis::CommandError
    redis.eval(script, params)
  end
end
