//! The slow tier: the rest of the end-to-end suite, which `.ci/run` always runs with the
//! quick tier: the sandbox and its attacks, kept-up bots, tournaments, shards and standings,
//! remote entrants, the pages in headless Chromium, the human seat in tmux, check-bot, the
//! double-dummy analysis and the pimc bot, and the sample bots in every language.
//!
//! One binary, one module per area (the library, DDS and every dependency linked once). Its
//! tests run side by side: none measures time or loads the machine on purpose (those are in
//! tests/alone/), and their limits are bounds for a hung run, generous under load.

#[path = "../common/mod.rs"]
mod common;

mod analysis;
mod check_bot;
mod competitions;
mod durability;
mod human_seat;
mod inherited_fds;
mod kept_bots;
mod kernel_channels;
mod league;
mod live_analysis;
mod live_page;
mod machine_faults;
mod open_doors;
mod pimc;
mod power_cut;
mod remote;
mod replay_html;
mod replay_story;
mod sample_bots_java_go;
mod sample_bots_py_js;
mod sample_bots_rust_c;
mod sandbox_attacks;
mod sandbox_setup;
mod sandbox_user;
mod sealed_results;
mod secret_deals;
mod standings_site;
mod swiss_shards;
mod symlinked_paths;
mod tournament;
mod tournament_scale;
mod twins;
mod web_seat;
mod web_seat_tournament;
