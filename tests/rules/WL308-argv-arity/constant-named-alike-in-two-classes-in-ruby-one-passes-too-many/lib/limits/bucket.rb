module Limits
  class Bucket
    LUA_SOURCE = File.read(File.join(__dir__, "bucket.lua"))
    LUA_SHA = Digest::SHA1.hexdigest(LUA_SOURCE)

    def take(redis, id)
      redis.evalsha(LUA_SHA, keys: ["lim:#{id}:bucket"], argv: [1, 2])
    end
  end
end
