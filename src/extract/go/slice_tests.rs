//! Go slices built by statements, read as the keys they hold.

use super::tests::{facts, script_calls};

/// `make([]string, 0, n)` is an empty slice: the keys `append` fills it
/// with are the keys passed.
#[test]
fn a_made_slice_holds_what_is_appended() {
    let src = "package jobs

import \"github.com/redis/go-redis/v9\"

var a = redis.NewScript(`return redis.call('GET', KEYS[1])`)

func f(ctx context.Context, c *redis.Client, u string) {
	keys := make([]string, 0, 2)
	keys = append(keys, \"q:1\")
	keys = append(keys, u)
	a.Run(ctx, c, keys)
	ks := make([]string, 1)
	a.Run(ctx, c, ks)
}
";
    let f = facts(src);
    assert_eq!(script_calls(&f), ["a [q:1 $u] []", "a [ ..] []"]);
}
