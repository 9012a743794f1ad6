local function take(taskKey, worker)
  rcall('HSET', taskKey, 'status', 'taken', 'owner', worker)
end
