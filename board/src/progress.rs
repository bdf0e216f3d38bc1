//! Progress lines of the board commands on stderr.

/// Progress on stderr.
pub fn progress(msg: &str) {
    fafft_config::output::note(format_args!("board: {msg}"));
}
