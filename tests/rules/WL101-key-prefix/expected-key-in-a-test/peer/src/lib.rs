pub fn job_key(q: &str, id: u64) -> String {
    format!("emq:{{{q}}}:job:{id}")
}

#[test]
fn the_prefix_moved_away() {
    assert_ne!(job_key("a", 1), "emk:{a}:job:1");
}
