pub struct Keys {
    queue: String,
}

impl Keys {
    pub fn new(queue: &str) -> Self {
        Keys {
            queue: queue.to_string(),
        }
    }

    pub fn parcel(&self, id: &str) -> String {
        format!("dp:{{{}}}:parcel:{}", self.queue, id)
    }
}
