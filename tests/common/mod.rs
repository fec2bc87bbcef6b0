#![allow(dead_code)]
pub mod engine;
pub mod oracle;
pub mod referee;
pub mod transcript;
