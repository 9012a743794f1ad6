/// mimalloc: a run allocates millions of small blocks from two threads
/// (facts, trees, the model), which the C library's allocator served from
/// arenas that grew a page at a time. Built without transparent huge pages
/// (`no_thp`), which raised the peak RSS by half for no gain in time; with
/// a heap apart for the facts a run keeps and a short purge delay
/// (`wirelint::memory`).
#[global_allocator]
static GLOBAL: wirelint::memory::Allocator = wirelint::memory::Allocator;

fn main() {
    wirelint::memory::init();
    let code = wirelint::cli::main_with_args(std::env::args_os().collect());
    std::process::exit(code);
}
