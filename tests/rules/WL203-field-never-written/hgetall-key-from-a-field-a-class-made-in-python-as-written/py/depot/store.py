import redis

from depot.names import Names

STORE = open("../scripts/store.lua").read()


class Store:
    def __init__(self, conn: redis.Redis):
        self.conn = conn
        self.names = Names("dp")

    def put(self, q, id, label, body, sent):
        return self.conn.eval(STORE, 1, self.names.row(q, id), label, body, sent)

    def fetch(self, q, id):
        fields = self.conn.hgetall(self.names.row(q, id))
        return {"label": fields.get("label"), "body": fields.get("body")}
