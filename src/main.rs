//! The `tarneeb` command: parse arguments, run, map errors to an exit code
//! (0 done, 1 the program itself failed, 2 bad usage or input, 130 interrupted).

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = match cli::Cli::try_parse() {
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
