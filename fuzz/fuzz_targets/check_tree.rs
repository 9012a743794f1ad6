#![no_main]
//! The whole pipeline on a generated tree: `wirelint check` in process
//! (`wirelint_fuzz::check_tree`), every format and the observed contract.
//! Input: files separated by `\0\x01`, the first byte of each picking its
//! path.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let tree = wirelint_fuzz::tree_of(data);
    wirelint_fuzz::check_tree(&tree);
});
