import redis

client = redis.Redis()


def push(identity, job):
    client.lpush(identity + ":jobs", job)


def pause(identity):
    client.hset(identity + ":meta", "paused", "1")
    client.lpush(identity + ":jbos", "x")
