"""Scripts made from one template, the way the code fills it."""

import redis

PUSH_TEMPLATE = """
if {condition} redis.call('zscore', {key}, {member}) then
    redis.call('zadd', {key}, {score}, {member})
end
"""
PUSH_NEW = PUSH_TEMPLATE.format(
    key="KEYS[1]", score="ARGV[1]", member="ARGV[2]", condition="not"
)
PUSH_ANY = PUSH_TEMPLATE.format(
    key="KEYS[1]", score="ARGV[1]", member="ARGV[2]", condition=""
)
