//! The `tarneeb` command: parse arguments, run, map errors to an exit code
//! (0 done, 1 the program itself failed, 2 bad usage or input, 130 interrupted).

mod cli;

use std::process::ExitCode;

use clap::Parser;

/// mimalloc rather than the system allocator: reading results rows allocates their strings on
/// one thread and frees them on another, where glibc's malloc spent a third of `standings`.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // `tournament --config FILE` stands for the flags in FILE, ahead of the others.
    let args = match tarneeb_referee::tournament::config::expand_args(std::env::args_os().collect())
    {
        Ok(a) => a,
        Err(e) => {
            eprintln!("tarneeb: {e}");
            return ExitCode::from(2);
        }
    };
    let cli = match cli::Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli::run(cli) {
        Ok(code) => ExitCode::from(code),
        // Whoever read our output stopped reading (`| head`): not an error.
        Err(e) if tarneeb_referee::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tarneeb: {}", cli::message(&e));
            cli::exit_code(&e)
        }
    }
}
