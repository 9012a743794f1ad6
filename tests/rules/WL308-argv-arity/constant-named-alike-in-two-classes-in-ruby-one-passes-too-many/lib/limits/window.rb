module Limits
  class Window
    LUA_SOURCE = File.read(File.join(__dir__, "window.lua"))
    LUA_SHA = Digest::SHA1.hexdigest(LUA_SOURCE)

    def take(redis, id, limit, period)
      redis.evalsha(LUA_SHA, keys: ["lim:#{id}:window"], argv: [limit, period, 1])
    end
  end
end
