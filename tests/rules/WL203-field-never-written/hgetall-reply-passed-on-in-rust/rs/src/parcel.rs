use std::collections::HashMap;

use crate::keys::Keys;

pub struct Parcel {
    pub label: Option<String>,
    pub body: Option<String>,
    pub sent: Option<String>,
}

const STORE: &str = include_str!("../../scripts/store.lua");

impl Parcel {
    pub async fn put(con: &mut Conn, keys: &Keys, id: &str, p: &Parcel) -> redis::RedisResult<()> {
        redis::Script::new(STORE)
            .key(keys.parcel(id))
            .arg(&p.label)
            .arg(&p.body)
            .arg(&p.sent)
            .invoke_async(con)
            .await
    }

    pub async fn fetch(con: &mut Conn, keys: &Keys, id: &str) -> redis::RedisResult<Parcel> {
        let fields: HashMap<String, String> = redis::cmd("HGETALL")
            .arg(keys.parcel(id))
            .query_async(con)
            .await?;
        Ok(Self::from_fields(&fields))
    }

    fn from_fields(fields: &HashMap<String, String>) -> Parcel {
        Parcel {
            label: fields.get("label").cloned(),
            body: fields.get("payload").cloned(),
            sent: fields.get("sent").cloned(),
        }
    }
}
