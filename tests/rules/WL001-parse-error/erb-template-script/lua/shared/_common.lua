local function log(msg)
  redis.call('PUBLISH', 'locks', msg)
end
