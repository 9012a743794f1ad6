import redis

client = redis.Redis()


def push(identity, job):
    client.lpush(f"{identity}:jobs", job)


def pause(identity):
    client.hset(f"{identity}:meta", mapping={"paused": "1", "max": "4"})
    client.hset(f"{identity}:meta", "pasued", "0")
