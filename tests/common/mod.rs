#![allow(dead_code)]
pub mod oracle;
pub mod referee;
pub mod transcript;
