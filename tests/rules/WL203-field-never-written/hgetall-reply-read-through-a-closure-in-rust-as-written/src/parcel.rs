use std::collections::HashMap;

pub struct Parcel {
    pub label: String,
    pub body: String,
}

impl Parcel {
    /// Reads through a closure over the row; this module names no client.
    pub fn from_row(row: &HashMap<String, String>) -> Option<Parcel> {
        let field = |name: &str| row.get(name).cloned();
        Some(Parcel {
            label: field("label")?,
            body: field("body")?,
        })
    }
}
