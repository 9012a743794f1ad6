local function take(taskKey, worker)
  rcall('HSET', taskKey, 'status', 'taken', 'ownedBy', worker)
end
