use std::collections::HashMap;

use redis::AsyncCommands;

use crate::parcel::Parcel;

pub struct Store {
    queue: String,
    con: redis::aio::MultiplexedConnection,
}

impl Store {
    fn row(&self, id: &str) -> String {
        format!("dp:{{{}}}:parcel:{}", self.queue, id)
    }

    pub async fn put(&self, id: &str, p: &Parcel) -> redis::RedisResult<()> {
        let mut con = self.con.clone();
        con.hset_multiple(self.row(id), &[("label", &p.label), ("body", &p.body)])
            .await
    }

    pub async fn fetch(&self, id: &str) -> redis::RedisResult<Option<Parcel>> {
        let mut con = self.con.clone();
        let row: HashMap<String, String> = con.hgetall(self.row(id)).await?;
        Ok(Parcel::from_row(&row))
    }
}
