//! `arbor completions` and `arbor man`: shell completions and a manual page, generated from the
//! command-line definitions so that they never fall behind them.

use clap::{Args, CommandFactory};
use clap_complete::Shell;
use std::process::ExitCode;

/// The shell to complete for.
#[derive(Args)]
pub struct CompletionsArgs {
    /// bash, zsh, fish, elvish or powershell.
    shell: Shell,
}

/// Prints the completion script for `args.shell` (install as the shell's documentation says,
/// e.g. `arbor completions bash > /etc/bash_completion.d/arbor`).
pub fn completions<C: CommandFactory>(args: CompletionsArgs) -> ExitCode {
    let mut command = C::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut command, "arbor", &mut out);
    write_out(&out)
}

/// Prints the manual page of `arbor` and its subcommands, in roff.
pub fn man<C: CommandFactory>() -> ExitCode {
    let command = C::command();
    let mut out = Vec::new();
    if let Err(e) = clap_mangen::Man::new(command.clone()).render(&mut out) {
        eprintln!("arbor man: {e}");
        return ExitCode::FAILURE;
    }
    for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
        let man = clap_mangen::Man::new(sub.clone());
        // Each subcommand's name, description, options and arguments as sections of one page.
        let rendered = man
            .render_name_section(&mut out)
            .and_then(|()| man.render_description_section(&mut out))
            .and_then(|()| man.render_options_section(&mut out));
        if let Err(e) = rendered {
            eprintln!("arbor man: {e}");
            return ExitCode::FAILURE;
        }
    }
    write_out(&out)
}

fn write_out(bytes: &[u8]) -> ExitCode {
    crate::sum::output::print_text(crate::sum::Tool::Arbor, "arbor", bytes)
}
