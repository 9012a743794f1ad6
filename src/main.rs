fn main() {
    let code = wirelint::cli::main_with_args(std::env::args_os().collect());
    std::process::exit(code);
}
