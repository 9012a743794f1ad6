// One call per row of the JavaScript and TypeScript library table
// (`src/extract/js/stdlib.rs`): a client call whose argument goes through
// the row, with what the extractor reads in a trailing comment (as
// `tests/client_methods/`). Read by the unit tests of
// `src/extract/clients/tests.rs`; not compiled.

import Redis from "ioredis";
import * as fs from "fs";
import * as path from "path";

const redis = new Redis();
const ENQUEUE = fs.readFileSync(path.join(__dirname, "enqueue.lua"), "utf8");
const DEQUEUE = fs.promises.readFile(path.join(__dirname, "dequeue.lua"));

async function calls(k: string) {
  await redis.eval(ENQUEUE, 1, k); // EVAL <script> <1> <k>
  await redis.eval(DEQUEUE, 1, k); // EVAL <script> <1> <k>
  await redis.get("emq:a".toString()); // GET emq:a
  await redis.get("emq:a".valueOf()); // GET emq:a
  await redis.get(Buffer.from("emq:a")); // GET emq:a
  await redis.hset("emq:a", "payload", JSON.stringify(["q", 1])); // HSET emq:a payload <list encoded as json>
}
