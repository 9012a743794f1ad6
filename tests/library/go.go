// One call per row of the Go library table (`src/extract/go/stdlib.rs`): a
// client call whose argument goes through the row, with what the extractor
// reads in a trailing comment (as `tests/client_methods/`). Read by the
// unit tests of `src/extract/clients/tests.rs`; not compiled.

package cases

import (
	"strconv"

	"github.com/redis/go-redis/v9"
)

func calls(ctx context.Context, rdb *redis.Client, id int) {
	rdb.Get(ctx, string("emq:a")) // GET emq:a
	rdb.Get(ctx, []byte("emq:a")) // GET emq:a
	rdb.Get(ctx, "emq:"+strconv.Itoa(7)) // GET emq:7
}
