#![allow(dead_code)]
pub mod oracle;
pub mod transcript;
