//! wirelint: keeps every speaker of a Redis job-queue protocol on the same
//! wire contract. See `docs/ARCHITECTURE.md` for the code map.

pub mod audit;
pub mod checks;
pub mod cli;
pub mod config;
pub mod contract;
pub mod diagnostic;
pub mod discover;
pub mod extract;
pub mod facts;
pub mod hash;
pub mod input;
pub mod keyshape;
pub mod link;
pub mod memory;
pub mod parse;
pub mod pipeline;
pub mod post;
pub mod redis;
pub mod report;
pub mod scope;
pub mod server;
pub mod source;
pub mod views;
