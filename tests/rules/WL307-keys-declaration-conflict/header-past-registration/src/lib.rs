pub static SCRIPTS: &[(&str, usize, &str)] = &[("touch", 1, include_str!("touch.lua"))];
