//! wirelint: keeps every speaker of a Redis job-queue protocol on the same
//! wire contract. See `docs/ARCHITECTURE.md` for the code map.

pub mod extract;
pub mod facts;
pub mod parse;
pub mod redis;
pub mod contract;
pub mod discover;
pub mod source;
pub mod checks;
pub mod diagnostic;
pub mod link;
pub mod analyze;
pub mod config;
pub mod report;
pub mod cli;
